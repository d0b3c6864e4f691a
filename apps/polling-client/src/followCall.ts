/**
 * `call` and `resume`: follow a tool call or an existing task to its end with live status, Ctrl-C cancellation
 * (`tasks/cancel`, exit 130) and `--detach`.
 */
import { type DetailedTask, type Task, TransportError } from '@mcp-tasks/protocol';
import { ConnectionError, describeFailure, ExitCode } from './cliErrors.js';
import { printToolResult } from './printResult.js';
import type { Session } from './session.js';

/** What to follow: a new call, or a task created earlier. */
export type FollowTarget =
  | { readonly kind: 'call'; readonly tool: string; readonly args: Record<string, unknown>; readonly detach: boolean }
  | { readonly kind: 'resume'; readonly taskId: string };

/** How long Ctrl-C waits for the `tasks/cancel` ack before exiting anyway. */
const CANCEL_ACK_TIMEOUT_MS = 3000;

/**
 * Runs the call (or resume) and resolves with the exit code: 0, 1 (isError), 130 (interrupted), or, with
 * `--detach`, 0 as soon as the task exists. Task failures reject with the client's typed errors.
 */
export async function followCall(session: Session, target: FollowTarget, json: boolean): Promise<number> {
  const { client, journal, reporter } = session;
  const controller = new AbortController();
  let taskId = target.kind === 'resume' ? target.taskId : undefined;
  const onStatus = (task: Task | DetailedTask): void => {
    taskId = task.taskId;
    journal.noteState(task.taskId, task.status, task.statusMessage);
    reporter.update(task);
  };
  let interrupted: () => void = () => undefined;
  const interrupt = new Promise<void>((resolve) => {
    interrupted = resolve;
  });
  const onSigint = (): void => {
    process.off('SIGINT', onSigint);
    // A second Ctrl-C during the cancel leaves at once.
    process.once('SIGINT', () => process.exit(ExitCode.Interrupted));
    interrupted();
  };
  process.on('SIGINT', onSigint);
  // Whichever way this ends, the call's own rejection (e.g. transport closed on exit) is handled here.
  const failed = (error: unknown) => ({ kind: 'error' as const, error });
  const settled =
    target.kind === 'call' && target.detach
      ? // --detach: run the MRTR rounds, then stop at the task handle (startTool journals it) without polling.
        client
          .startTool(target.tool, target.args, { signal: controller.signal })
          .then(
            (started) =>
              started.kind === 'complete'
                ? { kind: 'result' as const, result: started.result }
                : { kind: 'detached' as const, task: started.task },
            failed,
          )
      : (target.kind === 'call'
          ? client.callTool(target.tool, target.args, { signal: controller.signal, onStatus })
          : client.resumeTask(target.taskId, { signal: controller.signal, onStatus })
        ).then((result) => ({ kind: 'result' as const, result }), failed);
  try {
    const first = await Promise.race([settled, interrupt.then(() => ({ kind: 'interrupted' as const }))]);
    switch (first.kind) {
      case 'result':
        reporter.stop();
        return printToolResult(first.result, json, process.stdout);
      case 'error':
        reporter.stop();
        if (first.error instanceof TransportError && taskId !== undefined && journal.get(taskId) !== undefined) {
          const { message } = describeFailure(first.error);
          throw new ConnectionError(
            `${message}. Task ${taskId} stays in the journal: continue it with "resume ${taskId}"`,
            {
              cause: first.error,
            },
          );
        }
        throw first.error;
      case 'detached':
        journal.noteState(first.task.taskId, first.task.status, first.task.statusMessage);
        process.stdout.write(`${first.task.taskId}\n`);
        if (session.server.kind === 'stdio')
          process.stderr.write('note: a stdio server exits with this client, so the task cannot outlive it\n');
        return ExitCode.Completed;
      case 'interrupted':
        reporter.stop();
        await cancelOnInterrupt(session, taskId, controller);
        return ExitCode.Interrupted;
    }
  } finally {
    process.off('SIGINT', onSigint);
    reporter.stop();
  }
}

async function cancelOnInterrupt(session: Session, taskId: string | undefined, controller: AbortController) {
  if (taskId === undefined) {
    // No task yet (a direct call or an MRTR round): aborting the request is the whole cancellation.
    controller.abort(new Error('interrupted'));
    process.stderr.write('interrupted\n');
    return;
  }
  process.stderr.write(`interrupted: cancelling task ${taskId}…\n`);
  const timeout = AbortSignal.timeout(CANCEL_ACK_TIMEOUT_MS);
  try {
    await session.client.cancelTask(taskId, { signal: timeout });
    session.journal.remove(taskId);
    process.stderr.write(`cancellation of task ${taskId} requested\n`);
  } catch (error) {
    process.stderr.write(
      `could not cancel task ${taskId}: ${error instanceof Error ? error.message : error}; it stays in the journal\n`,
    );
  }
}
