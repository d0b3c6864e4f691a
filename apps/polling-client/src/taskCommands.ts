/** `tools`, `status`, `cancel` and `pending`: the one-shot commands. Each resolves with its exit code. */
import { TaskNotFoundError, TERMINAL_STATUSES } from '@mcp-tasks/client';
import { ErrorCode, isProtocolError } from '@mcp-tasks/protocol';
import type { CommonOptions } from './cliArgs.js';
import { ExitCode } from './cliErrors.js';
import { formatDuration } from './duration.js';
import type { FileTaskJournal } from './fileTaskJournal.js';
import type { Session } from './session.js';

/** `tools`: every tool, following pagination; `--json` prints the raw list. */
export async function listTools(session: Session, json: boolean): Promise<number> {
  const tools = await session.client.listAllTools();
  if (json) {
    process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
    return ExitCode.Completed;
  }
  const width = Math.max(0, ...tools.map((t) => t.name.length));
  for (const tool of tools) {
    const about = tool.description ?? tool.title ?? '';
    process.stdout.write(`${tool.name.padEnd(width)}  ${about.split('\n')[0]}\n`.replace(/\s+\n$/, '\n'));
  }
  return ExitCode.Completed;
}

/**
 * `status <taskId>`: one `tasks/get`, recorded in the journal as the last known state; a task seen finished leaves
 * the journal, so `pending` no longer lists it.
 */
export async function showStatus(session: Session, taskId: string, json: boolean): Promise<number> {
  const task = await notFoundAsTyped(taskId, () => session.client.getTask(taskId));
  if (TERMINAL_STATUSES.has(task.status)) session.journal.remove(taskId);
  else session.journal.noteState(taskId, task.status, task.statusMessage);
  if (json) {
    process.stdout.write(`${JSON.stringify(task, null, 2)}\n`);
    return ExitCode.Completed;
  }
  const lines = [`task ${task.taskId}: ${task.status}${task.statusMessage ? ` (${task.statusMessage})` : ''}`];
  lines.push(`  created ${task.createdAt}, last updated ${task.lastUpdatedAt}`);
  if (task.ttlMs !== undefined && task.ttlMs !== null)
    lines.push(`  kept for ${formatDuration(task.ttlMs)} after creation (ttl)`);
  if (task.status === 'input_required')
    lines.push(`  waiting for input: ${Object.keys(task.inputRequests).join(', ')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.Completed;
}

/** `cancel <taskId>`: sends `tasks/cancel` and drops the task from the journal (the ack is not the outcome, C17). */
export async function cancelTask(session: Session, taskId: string, json: boolean): Promise<number> {
  await notFoundAsTyped(taskId, () => session.client.cancelTask(taskId));
  session.journal.remove(taskId);
  process.stdout.write(
    json ? `${JSON.stringify({ taskId, cancelRequested: true })}\n` : `cancellation of task ${taskId} requested\n`,
  );
  return ExitCode.Completed;
}

/** `pending`: the journal's tasks with the last state this client saw (just asked, when `refreshed`). Needs no server. */
export function listPending(journal: FileTaskJournal, options: CommonOptions, refreshed = false): number {
  const tasks = journal.list();
  if (options.json) {
    process.stdout.write(`${JSON.stringify(tasks, null, 2)}\n`);
    return ExitCode.Completed;
  }
  if (tasks.length === 0) {
    process.stdout.write(`no pending tasks in ${journal.path}\n`);
    return ExitCode.Completed;
  }
  for (const task of tasks) {
    const state = task.lastStatus ?? 'unknown';
    const message = task.lastStatusMessage ? ` (${task.lastStatusMessage})` : '';
    const where = task.server === undefined ? '' : ` on ${task.server.kind === 'url' ? task.server.url : 'stdio'}`;
    process.stdout.write(
      `${task.taskId}  ${task.name}  ${state}${message}  as of ${task.lastSeenAt ?? task.recordedAt}${where}\n`,
    );
  }
  process.stdout.write(
    refreshed
      ? '(states just asked of their servers)\n'
      : '(states as last seen by this client; "pending --refresh" asks the servers)\n',
  );
  return ExitCode.Completed;
}

/** Turns the server's `-32602` for an unknown task into `TaskNotFoundError` (exit 3, like an expired task). */
async function notFoundAsTyped<T>(taskId: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isProtocolError(error) && error.code === ErrorCode.InvalidParams) throw new TaskNotFoundError(taskId, error);
    throw error;
  }
}
