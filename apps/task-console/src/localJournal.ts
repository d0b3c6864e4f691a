/**
 * The durable handle: a `TaskJournal` in `localStorage`, one list per server URL. Reload the page or open it in
 * another tab and every task still listed is picked up again; `storage` events tell other tabs about new tasks.
 */
import type { TaskJournal, TaskJournalEntry } from '@mcp-tasks/client';

const PREFIX = 'mcp-tasks-console:tasks:';

/** A journal of unfinished tasks kept in `storage` under a key derived from `serverUrl`. */
export class LocalJournal implements TaskJournal {
  readonly key: string;
  readonly #storage: Storage;

  constructor(serverUrl: string, storage: Storage = localStorage) {
    this.key = `${PREFIX}${serverUrl}`;
    this.#storage = storage;
  }

  add(entry: TaskJournalEntry): void {
    this.#write([...this.list().filter((e) => e.taskId !== entry.taskId), entry]);
  }

  remove(taskId: string): void {
    const entries = this.list();
    const kept = entries.filter((e) => e.taskId !== taskId);
    if (kept.length !== entries.length) this.#write(kept);
  }

  list(): TaskJournalEntry[] {
    try {
      const parsed: unknown = JSON.parse(this.#storage.getItem(this.key) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
    } catch {
      // A corrupt list (edited by hand) is dropped rather than breaking the page.
      return [];
    }
  }

  /** Calls `listener` with the current entries whenever another tab changes this journal. */
  onChange(listener: (entries: TaskJournalEntry[]) => void): () => void {
    const handler = (event: StorageEvent) => {
      if (event.key === this.key) listener(this.list());
    };
    addEventListener('storage', handler);
    return () => removeEventListener('storage', handler);
  }

  #write(entries: readonly TaskJournalEntry[]): void {
    if (entries.length === 0) this.#storage.removeItem(this.key);
    else this.#storage.setItem(this.key, JSON.stringify(entries));
  }
}

function isEntry(value: unknown): value is TaskJournalEntry {
  const entry = value as Partial<TaskJournalEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.taskId === 'string' &&
    typeof entry.name === 'string' &&
    typeof entry.recordedAt === 'string'
  );
}
