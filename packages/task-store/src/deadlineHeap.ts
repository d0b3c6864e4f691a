/**
 * A binary min-heap of (deadline, taskId) pairs in two parallel arrays (no per-entry object), so the expiry sweep
 * touches only the entries that are due: O(log n) per push or pop, however many tasks are stored.
 */
export class DeadlineHeap {
  readonly #deadlines: number[] = [];
  readonly #ids: string[] = [];

  /** Number of entries, including stale ones the sweep will skip. */
  get size(): number {
    return this.#deadlines.length;
  }

  /** The earliest deadline, or `Infinity` when empty. */
  peek(): number {
    return this.#deadlines.length === 0 ? Number.POSITIVE_INFINITY : (this.#deadlines[0] as number);
  }

  /** Adds an entry. */
  push(deadline: number, id: string): void {
    const deadlines = this.#deadlines;
    const ids = this.#ids;
    let i = deadlines.length;
    deadlines.push(deadline);
    ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const parentDeadline = deadlines[parent] as number;
      if (parentDeadline <= deadline) break;
      deadlines[i] = parentDeadline;
      ids[i] = ids[parent] as string;
      i = parent;
    }
    deadlines[i] = deadline;
    ids[i] = id;
  }

  /** Removes the entry with the earliest deadline and returns its id (undefined when empty). */
  pop(): string | undefined {
    const deadlines = this.#deadlines;
    const ids = this.#ids;
    if (deadlines.length === 0) return undefined;
    const top = ids[0];
    const lastDeadline = deadlines.pop() as number;
    const lastId = ids.pop() as string;
    const n = deadlines.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && (deadlines[child + 1] as number) < (deadlines[child] as number)) child++;
        const childDeadline = deadlines[child] as number;
        if (childDeadline >= lastDeadline) break;
        deadlines[i] = childDeadline;
        ids[i] = ids[child] as string;
        i = child;
      }
      deadlines[i] = lastDeadline;
      ids[i] = lastId;
    }
    return top;
  }

  /** Drops every entry. */
  clear(): void {
    this.#deadlines.length = 0;
    this.#ids.length = 0;
  }
}
