/**
 * `call` and `resume`: follow a tool call or an existing task to its end with live status, Ctrl-C cancellation
 * (`tasks/cancel`, exit 130), `--detach`, and retries while the server is away.
 */

import { TaskNotFoundError } from '@mcp-tasks/client';
import { type CallToolResult, type DetailedTask, type Task, TransportError } from '@mcp-tasks/protocol';
import { ConnectionError, describeFailure, ExitCode, TaskLostError, writeJsonFailure } from './cliErrors.js';
import { printToolResult } from './printResult.js';
import { type RetryPolicy, retryUntilBack } from './retryFollow.js';
import type { Session } from './session.js';

/** What to follow: a new call, or a task created earlier. */
export type FollowTarget =
  | { readonly kind: 'call'; readonly tool: string; readonly args: Record<string, unknown>; readonly detach: boolean }
  | { readonly kind: 'resume'; readonly taskId: string };

/** How long Ctrl-C waits for the `tasks/cancel` ack before exiting anyway. */
const CANCEL_ACK_TIMEOUT_MS = 3000;

type Outcome =
  | { readonly kind: 'result'; readonly result: CallToolResult }
  | { readonly kind: 'detached'; readonly task: Task }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'interrupted' };

/**
 * Runs the call (or resume) and resolves with the exit code: 0, 1 (isError), 130 (interrupted), or, with
 * `--detach`, 0 as soon as the task exists. Task failures reject with the client's typed errors; a server that
 * goes away mid-task is retried for `retry.forMs` before the connection error is thrown (the task stays journalled).
 */
export async function followCall(
  session: Session,
  target: FollowTarget,
  json: boolean,
  retry: RetryPolicy,
  onInterrupt: (listener: () => void) => () => void,
): Promise<number> {
  const { client, journal, reporter, controller } = session;
  let taskId = target.kind === 'resume' ? target.taskId : undefined;
  if (taskId !== undefined) reporter.line(`resuming task ${taskId}`);
  const onStatus = (task: Task | DetailedTask): void => {
    if (taskId === undefined) reporter.line(`task ${task.taskId} created`);
    taskId = task.taskId;
    journal.noteState(task.taskId, task.status, task.statusMessage);
    reporter.update(task);
  };
  let interrupted: () => void = () => undefined;
  const interrupt = new Promise<Outcome>((resolve) => {
    interrupted = () => resolve({ kind: 'interrupted' });
  });
  const stopListening = onInterrupt(() => interrupted());
  const failed = (error: unknown): Outcome => ({ kind: 'error', error });
  let reconnected = false;
  const options = { signal: controller.signal, onStatus };
  const follow = (): Promise<Outcome> =>
    (taskId !== undefined
      ? client.resumeTask(taskId, options)
      : target.kind === 'call'
        ? client.callTool(target.tool, target.args, options)
        : client.resumeTask(target.taskId, options)
    ).then((result): Outcome => ({ kind: 'result', result }), failed);
  const settled =
    target.kind === 'call' && target.detach
      ? // --detach: run the MRTR rounds, then stop at the task handle (startTool journals it) without polling.
        client
          .startTool(target.tool, target.args, { signal: controller.signal })
          .then(
            (started): Outcome =>
              started.kind === 'complete'
                ? { kind: 'result', result: started.result }
                : { kind: 'detached', task: started.task },
            failed,
          )
      : retryUntilBack(follow, {
          policy: retry,
          // Only a task this client can find again is worth waiting for: one in the journal, on a server that outlives
          // us, through a transport that can still reach it (a WebSocket retries on its own for --retry-for, then closes).
          resumable: () =>
            taskId !== undefined &&
            journal.get(taskId) !== undefined &&
            session.server.kind === 'url' &&
            !session.transportClosed(),
          say: (text) => {
            reconnected = true;
            reporter.line(text);
          },
          signal: controller.signal,
        });
  try {
    const first = await Promise.race([settled, interrupt]);
    reporter.stop();
    switch (first.kind) {
      case 'result':
        return printToolResult(first.result, json, process.stdout);
      case 'error':
        // A form nobody could answer aborted the run: its reason is the error to report.
        if (controller.signal.aborted && controller.signal.reason instanceof Error) throw controller.signal.reason;
        if ((reconnected || session.reconnected()) && first.error instanceof TaskNotFoundError) {
          // Retrying cannot bring it back, and neither can a later resume: stop here and forget it.
          journal.remove(first.error.taskId);
          throw new TaskLostError(first.error.taskId, { cause: first.error });
        }
        throw stillJournalled(first.error, taskId, session);
      case 'detached':
        journal.noteState(first.task.taskId, first.task.status, first.task.statusMessage);
        process.stdout.write(
          json
            ? `${JSON.stringify({ taskId: first.task.taskId, status: first.task.status })}\n`
            : `${first.task.taskId}\n`,
        );
        if (session.server.kind === 'stdio')
          process.stderr.write('note: a stdio server exits with this client, so the task cannot outlive it\n');
        return ExitCode.Completed;
      case 'interrupted': {
        const said = await cancelOnInterrupt(session, taskId);
        if (json)
          writeJsonFailure({
            message: said === 'interrupted' ? said : `interrupted; ${said}`,
            code: ExitCode.Interrupted,
          });
        return ExitCode.Interrupted;
      }
    }
  } finally {
    stopListening();
    reporter.stop();
  }
}

/** Adds the way back to an error that leaves a task pending in the journal. */
function stillJournalled(error: unknown, taskId: string | undefined, session: Session): unknown {
  if (taskId === undefined || session.journal.get(taskId) === undefined) return error;
  if (!(error instanceof TransportError || error instanceof ConnectionError)) return error;
  const { message } = describeFailure(error);
  return new ConnectionError(`${message}. Task ${taskId} stays in the journal: continue it with "resume ${taskId}"`, {
    cause: error,
  });
}

/** Cancels the task (bounded wait for the ack), says what happened on stderr, and returns that line. */
async function cancelOnInterrupt(session: Session, taskId: string | undefined): Promise<string> {
  const say = (line: string) => {
    process.stderr.write(`${line}\n`);
    return line;
  };
  if (taskId === undefined) {
    // No task yet (a direct call or an MRTR round): aborting the request is the whole cancellation.
    session.controller.abort(new Error('interrupted'));
    return say('interrupted');
  }
  process.stderr.write(`interrupted: cancelling task ${taskId}…\n`);
  const timeout = AbortSignal.timeout(CANCEL_ACK_TIMEOUT_MS);
  try {
    await session.client.cancelTask(taskId, { signal: timeout });
    session.journal.remove(taskId);
    return say(`cancellation of task ${taskId} requested`);
  } catch (error) {
    return say(
      `could not cancel task ${taskId}: ${error instanceof Error ? error.message : error}; it stays in the journal`,
    );
  }
}
