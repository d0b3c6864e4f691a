/**
 * `pending --refresh`: asks each journalled task's server for its state now, records it, and drops the tasks that
 * ended or that the server no longer knows, so the journal does not show stale `working` entries forever.
 */
import { TaskNotFoundError } from '@mcp-tasks/client';
import { ErrorCode, isProtocolError } from '@mcp-tasks/protocol';
import type { CommonOptions, ServerTarget } from './cliArgs.js';
import { describeFailure } from './cliErrors.js';
import type { FileTaskJournal } from './fileTaskJournal.js';
import type { Session } from './session.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Opens a session on a server (injected, so tests and the CLI share this logic). */
export type OpenSession = (options: CommonOptions, server: ServerTarget) => Promise<Session>;

/** Refreshes every entry; says what changed through `say` (one line per task). */
export async function refreshPending(
  journal: FileTaskJournal,
  options: CommonOptions,
  open: OpenSession,
  say: (line: string) => void,
): Promise<void> {
  for (const entry of journal.list()) {
    const server = entry.server;
    if (server === undefined || server.kind === 'stdio') {
      // A stdio server exited with the client that spawned it: nothing can reach the task any more.
      journal.remove(entry.taskId);
      say(`${entry.taskId}: its stdio server is gone; removed`);
      continue;
    }
    let session: Session | undefined;
    try {
      session = await open(options, server);
      const task = await session.client.getTask(entry.taskId);
      if (TERMINAL.has(task.status)) {
        journal.remove(entry.taskId);
        say(`${entry.taskId}: ${task.status}; removed (its result stays on the server until it expires)`);
      } else {
        journal.noteState(entry.taskId, task.status, task.statusMessage);
      }
    } catch (error) {
      if (error instanceof TaskNotFoundError || (isProtocolError(error) && error.code === ErrorCode.InvalidParams)) {
        journal.remove(entry.taskId);
        say(`${entry.taskId}: unknown to ${server.url} (expired, or the server restarted); removed`);
      } else {
        say(`${entry.taskId}: could not refresh (${describeFailure(error).message}); kept`);
      }
    } finally {
      await session?.close().catch(() => undefined);
    }
  }
}
