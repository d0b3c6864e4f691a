import type { DetailedTask } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { systemClock } from '../src/clock.js';
import { listeningObserver } from '../src/taskListener.js';

const working: DetailedTask = {
  taskId: 't1',
  status: 'working',
  createdAt: '2026-01-01T00:00:00Z',
  lastUpdatedAt: '2026-01-01T00:00:00Z',
  ttlMs: null,
};

describe('listeningObserver', () => {
  it('rejects with the abort reason when aborted while waiting, and does not poll', async () => {
    const poll = vi.fn(async () => working);
    // A listen stream that stays open (no acknowledgement) until the observer closes it.
    const open = (_params: unknown, _onNote: unknown, _onSend: unknown, signal: AbortSignal) =>
      new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    const observer = listeningObserver({ taskId: 't1', open, poll, clock: systemClock, safetyPollMs: 60_000 });
    const controller = new AbortController();
    const next = observer.next(60_000, controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(next).rejects.toBe(reason);
    expect(poll).not.toHaveBeenCalled();
    observer.close();
  });
});
