/** Input during a 2025-11-25 task: real related-task requests, input_required, and the 2026 view of the same task. */
import { LegacyTaskSchema, RELATED_TASK_META_KEY } from '@mcp-tasks/protocol';
import { InMemoryTaskStore } from '@mcp-tasks/task-store';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { collectInputFromPeer } from '../../src/era-2025/legacyTaskCollect.js';
import { LEGACY_TASK_WIRE } from '../../src/era-2025/legacyTaskWire.js';
import { TaskMethods } from '../../src/taskMethods.js';
import { TaskRuntime } from '../../src/taskRuntime.js';
import { registerTool } from '../../src/toolRegistry.js';
import { ENVELOPE, legacyFixture } from './legacyTaskSetup.js';

const ACCEPT = { action: 'accept', content: { ok: true } };

/** The 2026-07-28 task methods on the same operations. */
function modern(f: ReturnType<typeof legacyFixture>) {
  return new TaskMethods(f.runtime.ops, (taskId, reason) => f.runtime.supervisor.abort(taskId, reason));
}

async function waitForQuestion(f: ReturnType<typeof legacyFixture>, count = 1) {
  await vi.waitFor(() => expect(f.asked).toHaveLength(count));
  return f.asked[count - 1] as (typeof f.asked)[number];
}

describe('input during a 2025-11-25 task', () => {
  it('L-T11: ctx.elicit sends a real elicitation/create with related-task _meta; input_required until answered', async () => {
    const f = legacyFixture();
    const { task } = await f.call('confirm');
    const question = await waitForQuestion(f);
    expect(question.method).toBe('elicitation/create');
    expect(question.params).toMatchObject({
      message: 'Proceed?',
      _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } },
    });
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('input_required');
    question.answer(ACCEPT);
    expect(await f.route('tasks/result', { taskId: task.taskId })).toEqual({
      content: [{ type: 'text', text: `answer: ${JSON.stringify(ACCEPT)}` }],
      _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } },
    });
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('completed');
  });

  it('L-T11: the 2026 tasks/get of the same task shows the question while it waits, then the result', async () => {
    const f = legacyFixture();
    const { task } = await f.call('confirm');
    const question = await waitForQuestion(f);
    const waiting = await modern(f).get('session-a', task.taskId);
    expect(waiting.status).toBe('input_required');
    const requests = Object.values(waiting.inputRequests ?? {});
    expect(requests).toEqual([expect.objectContaining({ method: 'elicitation/create' })]);
    question.answer(ACCEPT);
    await f.route('tasks/result', { taskId: task.taskId });
    expect(await modern(f).get('session-a', task.taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text' }] },
    });
  });

  it('L-T11: an answer given through the 2026 tasks/update counts as well; the late peer answer is ignored', async () => {
    const f = legacyFixture();
    const { task } = await f.call('confirm');
    const question = await waitForQuestion(f);
    const waiting = await modern(f).get('session-a', task.taskId);
    const [key] = Object.keys(waiting.inputRequests ?? {});
    await modern(f).update('session-a', task.taskId, { [key as string]: { action: 'decline' } });
    const result = await f.route('tasks/result', { taskId: task.taskId });
    expect(result.content).toEqual([{ type: 'text', text: 'answer: {"action":"decline"}' }]);
    question.answer(ACCEPT);
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('completed');
  });

  it('L-T19: notifications/tasks/status carries the full Task on each status change, without related-task _meta', async () => {
    const f = legacyFixture();
    const { task } = await f.call('confirm');
    (await waitForQuestion(f)).answer(ACCEPT);
    await f.route('tasks/result', { taskId: task.taskId });
    await vi.waitFor(() => expect(f.notifications.length).toBeGreaterThanOrEqual(3));
    const statuses = f.notifications.map((n) => {
      expect(n.method).toBe('notifications/tasks/status');
      expect(n.params).not.toHaveProperty('_meta');
      return LegacyTaskSchema.parse(n.params).status;
    });
    expect(statuses).toEqual(['input_required', 'working', 'completed']);
    await vi.waitFor(() => expect(f.runtime.ops.stats().listenedTasks).toBe(0));
  });

  it('L-T11: a malformed answer or a refused request fails the question; the tool sees an error', async () => {
    const f = legacyFixture();
    const first = await f.call('confirm');
    (await waitForQuestion(f, 1)).answer({ action: 'maybe' });
    expect(await f.route('tasks/result', { taskId: first.task.taskId })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('The client did not answer elicitation/create') }],
    });
    expect((await f.route('tasks/get', { taskId: first.task.taskId })).status).toBe('failed');
    const second = await f.call('confirm');
    (await waitForQuestion(f, 2)).refuse(new Error('client said no'));
    expect(await f.route('tasks/result', { taskId: second.task.taskId })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The client did not answer elicitation/create: client said no' }],
    });
    const record = await f.runtime.ops.get('session-a', second.task.taskId);
    expect(record?.inputRequests).toEqual({});
  });

  it('L-T17: cancelling a task that waits for input abandons the client request', async () => {
    const f = legacyFixture();
    const { task } = await f.call('confirm');
    const question = await waitForQuestion(f);
    await f.route('tasks/cancel', { taskId: task.taskId });
    await vi.waitFor(() => expect(question.signal.aborted).toBe(true));
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('cancelled');
  });
});

describe('one task, two wires', () => {
  it('isError is failed on the 2025-11-25 wire and completed on the 2026-07-28 wire', async () => {
    const f = legacyFixture();
    const { task } = await f.call('reports_error');
    await f.route('tasks/result', { taskId: task.taskId });
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('failed');
    expect(await modern(f).get('session-a', task.taskId)).toMatchObject({
      status: 'completed',
      result: { isError: true, resultType: 'complete' },
    });
  });

  it('a 2026 tasks/cancel of a 2025 task is seen as cancelled on the 2025 wire', async () => {
    const f = legacyFixture();
    const { task } = await f.call('slow');
    await modern(f).cancel('session-a', task.taskId);
    expect((await f.route('tasks/get', { taskId: task.taskId })).status).toBe('cancelled');
    await vi.waitFor(() => expect(f.aborted).toContain(task.taskId));
  });
});

describe('lost worker', () => {
  it('a 2025-11-25 task of a resumable tool is failed, not resumed, when its worker is lost', async () => {
    const store = new InMemoryTaskStore();
    const tool = registerTool({
      name: 'resumable',
      description: 'Safe to run twice',
      taskSupport: 'optional',
      resumable: true,
      handler: () => ({ content: [{ type: 'text', text: 'ran again' }] }),
    });
    const lapsed = { worker: 'dead-worker', until: Date.now() - 1 };
    const requestMeta = { method: 'tools/call', name: 'resumable', arguments: {}, wire: LEGACY_TASK_WIRE };
    const legacy = await store.create('session-a', { ttlMs: null, requestMeta, lease: lapsed });
    const { wire: _wire, ...modernMeta } = requestMeta;
    const modern2026 = await store.create('alice', { ttlMs: null, requestMeta: modernMeta, lease: lapsed });
    const runtime = new TaskRuntime({
      store,
      ttlMs: null,
      pollIntervalMs: 500,
      immediateResultMs: 0,
      maxInputRequestsPerTask: 4,
      leaseMs: 30,
      keepFinishedMs: null,
      workerId: 'worker-b',
      tools: new Map([['resumable', tool]]),
      report: () => undefined,
    });
    onTestFinished(async () => {
      await runtime.close(50, false);
      await store.close();
    });
    await vi.waitFor(async () => {
      expect((await store.get('session-a', legacy.taskId))?.status).toBe('failed');
      expect((await store.get('alice', modern2026.taskId))?.status).toBe('completed');
    });
  });
});

describe('collectInput on the 2025-11-25 task path', () => {
  it('asks the client with plain requests before the task exists, then runs the handler with the answers', async () => {
    const f = legacyFixture();
    const created = f.call('collects');
    const question = await waitForQuestion(f);
    expect(question.method).toBe('elicitation/create');
    expect(question.params).not.toHaveProperty('_meta');
    expect((await f.route('tasks/list', {})) as { tasks: unknown[] }).toEqual({ tasks: [] });
    question.answer({ action: 'accept', content: { name: 'Ada' } });
    const { task } = await created;
    expect(await f.route('tasks/result', { taskId: task.taskId })).toMatchObject({
      content: [{ type: 'text', text: '{"name":"Ada"} {"round":1}' }],
    });
  });

  it("lets go of each round's onAbort listeners once the round settled, on a signal shared by many requests", async () => {
    let heard = 0;
    const tool = registerTool({
      name: 'collects_listening',
      description: 'Listens for an abort in every collectInput round, and asks once',
      taskSupport: 'required',
      collectInput: (_args, ctx) => {
        ctx.onAbort(() => heard++);
        return ctx.inputResponses.name === undefined
          ? ctx.inputRequired({
              inputRequests: {
                name: {
                  method: 'elicitation/create',
                  params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
                },
              },
            })
          : undefined;
      },
      handler: () => ({ content: [] }),
    });
    // A transport may hand every request its connection's signal (aborted when the connection closes).
    const connection = new AbortController();
    const scope = {
      principal: undefined,
      envelope: ENVELOPE,
      abort: { signal: connection.signal },
      notify: () => undefined,
      streaming: () => true,
    };
    let rounds = 0;
    const ask = async () => {
      rounds++;
      return { action: 'accept', content: { name: 'Ada' } };
    };
    for (let i = 0; i < 3; i++) {
      const mrtr = await collectInputFromPeer(tool, {}, scope, ask);
      expect(mrtr.inputResponses.name).toEqual({ action: 'accept', content: { name: 'Ada' } });
    }
    expect(rounds).toBe(3);
    connection.abort('connection closed');
    // Six rounds each added a listener and ended before the abort: none of them may run.
    expect(heard).toBe(0);
  });
});
