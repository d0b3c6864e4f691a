import type { TaskOwner } from './taskStore.js';

/** What one owner holds in a store: how many tasks are still running, and its finished tasks oldest-finished first. */
interface OwnerHoldings {
  live: number;
  /** Insertion order is finish order (a `Set` iterates in insertion order), so the first entry finished first. */
  readonly finished: Set<string>;
}

/**
 * Per-owner bookkeeping behind a store's limits: live (non-terminal) tasks, which `maxTasksPerOwner` bounds, and
 * finished tasks in the order they ended, which `maxFinishedTasksPerOwner` bounds by dropping the oldest. Owners
 * holding nothing are forgotten, so the map never outgrows the tasks stored.
 */
export class OwnerTally {
  readonly #owners = new Map<TaskOwner, OwnerHoldings>();

  /** Owners holding at least one task. */
  get size(): number {
    return this.#owners.size;
  }

  /** Live tasks of `owner`. */
  live(owner: TaskOwner): number {
    return this.#owners.get(owner)?.live ?? 0;
  }

  /** Counts a new live task. */
  created(owner: TaskOwner): void {
    this.#holdings(owner).live += 1;
  }

  /** Moves a task from live to finished (its terminal write). */
  finished(owner: TaskOwner, taskId: string): void {
    const holdings = this.#holdings(owner);
    holdings.live -= 1;
    holdings.finished.add(taskId);
  }

  /** Forgets a removed task; `terminal` says which count it was in. */
  removed(owner: TaskOwner, taskId: string, terminal: boolean): void {
    const holdings = this.#owners.get(owner);
    if (holdings === undefined) return;
    if (terminal) holdings.finished.delete(taskId);
    else holdings.live -= 1;
    if (holdings.live === 0 && holdings.finished.size === 0) this.#owners.delete(owner);
  }

  /** The finished tasks of `owner` beyond the newest `keep`, oldest first: the ones to drop. */
  finishedBeyond(owner: TaskOwner, keep: number): string[] {
    const finished = this.#owners.get(owner)?.finished;
    if (finished === undefined || finished.size <= keep) return [];
    const excess: string[] = [];
    for (const taskId of finished) {
      if (excess.length === finished.size - keep) break;
      excess.push(taskId);
    }
    return excess;
  }

  clear(): void {
    this.#owners.clear();
  }

  #holdings(owner: TaskOwner): OwnerHoldings {
    let holdings = this.#owners.get(owner);
    if (holdings === undefined) {
      holdings = { live: 0, finished: new Set() };
      this.#owners.set(owner, holdings);
    }
    return holdings;
  }
}
