/** The CLI: parses argv, runs one command, and turns every outcome into an exit code and at most one error line. */
import { login, logout } from './authCommands.js';
import { type Command, commandOf, PROGRAM, parseCliArgs } from './cliArgs.js';
import { describeFailure, ExitCode, UsageError, writeJsonFailure } from './cliErrors.js';
import { runConformance } from './conformanceMode.js';
import { followCall } from './followCall.js';
import { refreshPending } from './refreshPending.js';
import { CLIENT_VERSION, openJournal, openSession, type Session } from './session.js';
import { cancelTask, listPending, listTools, showStatus } from './taskCommands.js';

const COMMANDS = new Set(['call', 'resume', 'status', 'cancel', 'tools', 'pending', 'conformance', 'login', 'logout']);

/** Runs the CLI with `argv` (no node or script path) and resolves with the exit code. Never rejects. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const verbose = argv.includes('--verbose');
  const json = argv.includes('--json');
  try {
    // Conformance mode is chosen by the environment; the harness puts the URL last.
    if (env.MCP_CONFORMANCE_SCENARIO !== undefined && argv[0] !== 'conformance') {
      const url = argv.at(-1);
      if (url === undefined) throw new UsageError('conformance mode needs the server URL as the last argument');
      return await runConformance(url, env);
    }
    return await runCommand(parseCliArgs(argv, CLIENT_VERSION), env);
  } catch (error) {
    const failure = describeFailure(error);
    // With --json a script reads stdout: it gets one JSON document for a failure too.
    if (json) writeJsonFailure(failure);
    process.stderr.write(`error: ${failure.message.replace(/\n/g, ' ')}\n`);
    if (error instanceof UsageError) process.stderr.write(`${usageHint(argv)}\n`);
    if (verbose && error instanceof Error) process.stderr.write(`${detail(error)}\n`);
    return failure.code;
  }
}

function usageHint(argv: readonly string[]): string {
  const command = commandOf(argv);
  return command !== undefined && COMMANDS.has(command)
    ? `Run "${PROGRAM} ${command} --help" for its options.`
    : `Run "${PROGRAM} --help" for the commands.`;
}

async function runCommand(command: Command, env: NodeJS.ProcessEnv): Promise<number> {
  switch (command.name) {
    case 'printed':
      return ExitCode.Completed;
    case 'conformance':
      return runConformance(command.url, env);
    case 'login':
      return login(command.url, command.options);
    case 'logout':
      return logout(command.url, command.options);
    case 'pending': {
      const journal = openJournal(command.options);
      if (command.refresh)
        await refreshPending(journal, command.options, openSession, (line) => process.stderr.write(`${line}\n`));
      return listPending(journal, command.options, command.refresh);
    }
    case 'tools':
      return withSession(command.options, (s) => listTools(s, command.options.json));
    case 'status':
      return withSession(command.options, (s) => showStatus(s, command.taskId, command.options.json), command.taskId);
    case 'cancel':
      return withSession(command.options, (s) => cancelTask(s, command.taskId, command.options.json), command.taskId);
    case 'call':
    case 'resume': {
      const { options } = command;
      const target =
        command.name === 'call'
          ? { kind: 'call' as const, tool: command.tool, args: command.args, detach: command.detach }
          : { kind: 'resume' as const, taskId: command.taskId };
      return withSession(
        options,
        (s, onInterrupt) => followCall(s, target, options.json, { forMs: options.retryForMs }, onInterrupt),
        target.kind === 'resume' ? target.taskId : undefined,
      );
    }
  }
}

/**
 * Opens a session on the server from the flags or, for commands about a journalled task, on the server the
 * journal recorded for it, runs `body`, and always closes the session (which reaps a stdio child). Ctrl-C goes to
 * the listener `body` registers; with none, it closes the session and exits 130.
 */
async function withSession(
  options: Parameters<typeof openSession>[0],
  body: (session: Session, onInterrupt: (listener: () => void) => () => void) => Promise<number>,
  taskId?: string,
): Promise<number> {
  const server = options.server ?? (taskId === undefined ? undefined : openJournal(options).get(taskId)?.server);
  if (server === undefined)
    throw new UsageError(
      taskId === undefined
        ? 'say which server: --url <url> or --stdio "<command>"'
        : `task ${taskId} is not in the journal (it ended, or was started with another --journal), so say which server: --url <url> or --stdio "<command>"`,
    );
  let session: Session | undefined;
  let listener: (() => void) | undefined;
  const onSigint = (): void => {
    // The terminal echoed ^C on the current line; start ours on a fresh one.
    if (process.stderr.isTTY) process.stderr.write('\n');
    process.off('SIGINT', onSigint);
    // A second Ctrl-C leaves at once (the exit handler still reaps a stdio child).
    process.once('SIGINT', () => process.exit(ExitCode.Interrupted));
    if (listener !== undefined) {
      listener();
      return;
    }
    process.stderr.write('interrupted\n');
    if (options.json) writeJsonFailure({ message: 'interrupted', code: ExitCode.Interrupted });
    void (session?.close() ?? Promise.resolve()).finally(() => process.exit(ExitCode.Interrupted));
  };
  process.on('SIGINT', onSigint);
  try {
    session = await openSession(options, server);
    return await body(session, (l) => {
      listener = l;
      return () => {
        listener = undefined;
      };
    });
  } finally {
    process.off('SIGINT', onSigint);
    await session?.close().catch(() => undefined);
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
