#!/usr/bin/env node
/** Entry point of `mcp-tasks-polling-client`: runs the CLI and exits with its code. */
import { runCli } from './cli.js';

// `… | head` closing the pipe early is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const code = await runCli(process.argv.slice(2));
// Exit explicitly: a stdio child or a keep-alive socket must not hold the process open after the outcome is known.
process.exit(code);
