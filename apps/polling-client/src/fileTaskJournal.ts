/**
 * A `TaskJournal` kept in one JSON file, so a client that was killed can list and resume its tasks (C8). Each entry
 * also remembers which server the task lives on and the last state this client saw.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TaskJournal, TaskJournalEntry } from '@mcp-tasks/client';
import envPaths from 'env-paths';
import type { ServerTarget } from './cliArgs.js';
import { UsageError } from './cliErrors.js';

/** A journal entry plus what this CLI adds: the server and the last observed state. */
export interface PendingTask extends TaskJournalEntry {
  /** Where the task lives (never the token). */
  readonly server?: ServerTarget | undefined;
  readonly lastStatus?: string | undefined;
  readonly lastStatusMessage?: string | undefined;
  /** When `lastStatus` was observed (ISO 8601). */
  readonly lastSeenAt?: string | undefined;
}

interface JournalFile {
  readonly version: 1;
  readonly tasks: PendingTask[];
}

/**
 * The default journal: `journal.json` in the per-user data directory of each platform (env-paths): Linux
 * `$XDG_DATA_HOME/mcp-tasks` (`~/.local/share/mcp-tasks`), macOS `~/Library/Application Support/mcp-tasks`,
 * Windows `%LOCALAPPDATA%\mcp-tasks\Data`.
 */
export function defaultJournalPath(): string {
  return join(envPaths('mcp-tasks', { suffix: '' }).data, 'journal.json');
}

/**
 * The file journal. Every change rewrites the file through a temporary file and a rename, so a process killed at
 * any moment leaves either the old or the new journal, never half of one. Not safe for concurrent writers in
 * different processes beyond that (last writer wins), which is enough for one person's CLI.
 */
export class FileTaskJournal implements TaskJournal {
  readonly path: string;
  readonly #server: ServerTarget | undefined;

  /** `server` is stamped on entries this instance adds. */
  constructor(path: string, server?: ServerTarget) {
    this.path = path;
    this.#server = server;
  }

  add(entry: TaskJournalEntry): void {
    this.#update((tasks) => [...tasks.filter((t) => t.taskId !== entry.taskId), { ...entry, server: this.#server }]);
  }

  remove(taskId: string): void {
    this.#update((tasks) => tasks.filter((t) => t.taskId !== taskId));
  }

  list(): readonly PendingTask[] {
    return this.#read();
  }

  /** The entry for `taskId`, if the journal has one. */
  get(taskId: string): PendingTask | undefined {
    return this.#read().find((t) => t.taskId === taskId);
  }

  /** Records the last state seen for a journalled task; a no-op for a task that is not in the journal. */
  noteState(taskId: string, status: string, statusMessage: string | undefined): void {
    const entry = this.get(taskId);
    if (entry === undefined || (entry.lastStatus === status && entry.lastStatusMessage === statusMessage)) return;
    const lastSeenAt = new Date().toISOString();
    this.#update((tasks) =>
      tasks.map((t) =>
        t.taskId === taskId ? { ...t, lastStatus: status, lastStatusMessage: statusMessage, lastSeenAt } : t,
      ),
    );
  }

  #read(): PendingTask[] {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new UsageError(`Cannot read the journal ${this.path}: ${(error as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UsageError(`The journal ${this.path} is not valid JSON; fix or delete it`);
    }
    const tasks = (parsed as Partial<JournalFile> | null)?.tasks;
    if (!Array.isArray(tasks)) throw new UsageError(`The journal ${this.path} has no "tasks" list; fix or delete it`);
    return tasks.filter((t): t is PendingTask => typeof t === 'object' && t !== null && typeof t.taskId === 'string');
  }

  #update(change: (tasks: PendingTask[]) => PendingTask[]): void {
    const file: JournalFile = { version: 1, tasks: change(this.#read()) };
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
    renameSync(temporary, this.path);
  }
}
