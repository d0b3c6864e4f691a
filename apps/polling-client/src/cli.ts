/** The CLI: parses argv, runs one command, and turns every outcome into an exit code and at most one error line. */
import { type Command, parseCliArgs, USAGE } from './cliArgs.js';
import { describeFailure, ExitCode, UsageError } from './cliErrors.js';
import { runConformance } from './conformanceMode.js';
import { followCall } from './followCall.js';
import { openJournal, openSession, type Session } from './session.js';
import { cancelTask, listPending, listTools, showStatus } from './taskCommands.js';

/** Runs the CLI with `argv` (no node or script path) and resolves with the exit code. Never rejects. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const verbose = argv.includes('--verbose');
  try {
    // Conformance mode is chosen by the environment; the harness puts the URL last.
    if (env.MCP_CONFORMANCE_SCENARIO !== undefined && argv[0] !== 'conformance') {
      const url = argv.at(-1);
      if (url === undefined) throw new UsageError('conformance mode needs the server URL as the last argument');
      return await runConformance(url, env);
    }
    return await runCommand(parseCliArgs(argv), env);
  } catch (error) {
    const failure = describeFailure(error);
    process.stderr.write(`error: ${failure.message}\n`);
    if (error instanceof UsageError && /Unknown command|needs|unexpected argument/.test(error.message))
      process.stderr.write('Run with --help for usage.\n');
    if (verbose && error instanceof Error) process.stderr.write(`${detail(error)}\n`);
    return failure.code;
  }
}

async function runCommand(command: Command, env: NodeJS.ProcessEnv): Promise<number> {
  switch (command.name) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return ExitCode.Completed;
    case 'conformance':
      return runConformance(command.url, env);
    case 'pending':
      return listPending(openJournal(command.options), command.options);
    case 'tools':
      return withSession(command.options, (s) => listTools(s, command.options.json));
    case 'status':
      return withSession(command.options, (s) => showStatus(s, command.taskId, command.options.json), command.taskId);
    case 'cancel':
      return withSession(command.options, (s) => cancelTask(s, command.taskId), command.taskId);
    case 'call':
      return withSession(command.options, (s) =>
        followCall(
          s,
          { kind: 'call', tool: command.tool, args: command.args, detach: command.detach },
          command.options.json,
        ),
      );
    case 'resume':
      return withSession(
        command.options,
        (s) => followCall(s, { kind: 'resume', taskId: command.taskId }, command.options.json),
        command.taskId,
      );
  }
}

/**
 * Opens a session on the server from the flags or, for commands about a journalled task, on the server the
 * journal recorded for it, runs `body`, and always closes the session.
 */
async function withSession(
  options: Parameters<typeof openSession>[0],
  body: (session: Session) => Promise<number>,
  taskId?: string,
): Promise<number> {
  const server = options.server ?? (taskId === undefined ? undefined : openJournal(options).get(taskId)?.server);
  if (server === undefined)
    throw new UsageError('Say which server: --url <url> or --stdio "<command>" (the journal does not know this task)');
  const session = await openSession(options, server);
  try {
    return await body(session);
  } finally {
    await session.close().catch(() => undefined);
  }
}

function detail(error: Error): string {
  const lines = [error.stack ?? String(error)];
  let cause = error.cause;
  while (cause instanceof Error) {
    lines.push(`caused by: ${cause.stack ?? cause.message}`);
    cause = cause.cause;
  }
  return lines.join('\n');
}
