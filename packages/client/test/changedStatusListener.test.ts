import type { Task } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { changedStatusListener } from '../src/changedStatusListener.js';

const task = (fields: Partial<Task> = {}): Task =>
  ({
    taskId: 't1',
    status: 'working',
    createdAt: '2026-01-01T00:00:00Z',
    lastUpdatedAt: '2026-01-01T00:00:00Z',
    ttlMs: 60_000,
    ...fields,
  }) as Task;

describe('changedStatusListener', () => {
  it('reports a state only when its status, message or lastUpdatedAt changed', () => {
    const seen: string[] = [];
    const listener = changedStatusListener((t) => seen.push(`${t.status}:${t.statusMessage ?? ''}`));
    listener?.(task());
    listener?.(task());
    listener?.(task({ statusMessage: 'half', lastUpdatedAt: '2026-01-01T00:00:01Z' }));
    listener?.(task({ statusMessage: 'half', lastUpdatedAt: '2026-01-01T00:00:01Z' }));
    listener?.(task({ status: 'completed', statusMessage: 'half', lastUpdatedAt: '2026-01-01T00:00:02Z' }));
    expect(seen).toEqual(['working:', 'working:half', 'completed:half']);
  });

  it('is undefined without a listener', () => {
    expect(changedStatusListener(undefined)).toBeUndefined();
  });
});
