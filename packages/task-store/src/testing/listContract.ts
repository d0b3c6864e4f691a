import { describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '../taskStore.js';
import { type ContractStore, expectStoreError, type OpenStore, RESULT } from './contractContext.js';

/** Reads every page of `owner`'s tasks, `limit` at a time; returns the ids in order and the number of pages. */
async function listAll(store: ContractStore, owner: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await store.list(owner, { limit, ...(cursor === undefined ? {} : { cursor }) });
    pages += 1;
    expect(page.tasks.length).toBeLessThanOrEqual(limit);
    ids.push(...page.tasks.map((task) => task.taskId));
    cursor = page.nextCursor;
    if (pages > 1_000) throw new Error('list never ended');
  } while (cursor !== undefined);
  return { ids, pages };
}

const byPosition = (a: TaskRecord, b: TaskRecord) =>
  a.createdAt === b.createdAt ? (a.taskId < b.taskId ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1;

/** Listing one owner's tasks: creation order, keyset pages, owner isolation, expiry, cursor checks. */
export function listContract(open: OpenStore): void {
  describe('list', () => {
    list1(open);
    list2(open);
  });
}

/** The "list" cases, part 1. */
function list1(open: OpenStore): void {
  it('pages through exactly the owner’s tasks in creation order, each once, every status included', async () => {
    const store = await open();
    const created: TaskRecord[] = [];
    for (let i = 0; i < 7; i++) created.push(await store.create('alice', { ttlMs: null }));
    await store.create('bob', { ttlMs: null });
    await store.complete('alice', created[1]?.taskId ?? '', RESULT);
    await store.cancel('alice', created[2]?.taskId ?? '');
    const expected = [...created].sort(byPosition).map((task) => task.taskId);
    expect(await listAll(store, 'alice', 3)).toEqual({ ids: expected, pages: 3 });
    expect(await listAll(store, 'alice', 7)).toEqual({ ids: expected, pages: 1 });
    expect(await listAll(store, 'alice', 100)).toEqual({ ids: expected, pages: 1 });
    const whole = await store.list('alice', { limit: 100 });
    expect(whole.nextCursor).toBeUndefined();
    expect(whole.tasks.find((task) => task.taskId === created[1]?.taskId)?.status).toBe('completed');
    expect(whole.tasks.find((task) => task.taskId === created[2]?.taskId)?.status).toBe('cancelled');
    expect((await store.list('mallory', { limit: 10 })).tasks).toEqual([]);
  });

  it('returns the current records, as get does', async () => {
    const store = await open();
    const task = await store.create('alice', { ttlMs: null });
    await store.setStatusMessage('alice', task.taskId, 'halfway');
    const page = await store.list('alice', { limit: 10 });
    expect(page.tasks).toEqual([await store.get('alice', task.taskId)]);
  });

  it('continues after the cursor although tasks were added or removed meanwhile', async () => {
    const store = await open();
    const first = await Promise.all([1, 2, 3, 4].map(() => store.create('alice', { ttlMs: null })));
    const page1 = await store.list('alice', { limit: 2 });
    expect(page1.nextCursor).toBeDefined();
    const later = await store.create('alice', { ttlMs: null });
    const rest = await store.list('alice', { limit: 10, cursor: page1.nextCursor });
    const seen = [...page1.tasks, ...rest.tasks].map((task) => task.taskId);
    expect(new Set(seen).size).toBe(seen.length);
    // Every task that existed before the first page is listed exactly once. A task created meanwhile is listed
    // at most once: it sorts by creation time, then id, so one created in the same millisecond as the cursor's
    // task but with a smaller id falls before the cursor.
    const before = first.map((task) => task.taskId);
    expect(seen.filter((id) => id !== later.taskId).sort()).toEqual(before.sort());
  });

  it('leaves out tasks past their TTL', async () => {
    const store = await open();
    const kept = await store.create('alice', { ttlMs: null });
    const due = await store.create('alice', { ttlMs: 1 });
    await vi.waitFor(async () => {
      const ids = (await store.list('alice', { limit: 10 })).tasks.map((task) => task.taskId);
      expect(ids).toEqual([kept.taskId]);
    });
    expect(due.taskId).not.toBe(kept.taskId);
  });
}

/** The "list" cases, part 2. */
function list2(open: OpenStore): void {
  it('refuses a cursor it did not hand out and a limit that is not a positive integer', async () => {
    const store = await open();
    await store.create('alice', { ttlMs: null });
    for (const cursor of ['', 'not a cursor', '!!!', 'e30', btoa('["x","y"]')]) {
      await expectStoreError(store.list('alice', { limit: 10, cursor }), 'invalid_cursor');
    }
    for (const limit of [0, -1, 1.5, Number.NaN]) {
      await expectStoreError(store.list('alice', { limit }), 'invalid_argument');
    }
  });
}
