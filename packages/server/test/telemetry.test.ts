/**
 * OpenTelemetry of a task's whole life, with the SDK's in-memory exporter and a metric reader: a durable task that
 * asks for input, is parked by one instance, resumed by another (two servers on one store) and completes.
 */

import { InMemoryTaskStore, type TaskRecord } from '@mcp-tasks/task-store';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallAbort } from '../src/callAbort.js';
import {
  TELEMETRY_ATTRIBUTES as A,
  McpServer,
  parseTraceparent,
  RetryableError,
  TaskAbortError,
  type TelemetryOptions,
} from '../src/index.js';
import { TaskTelemetry } from '../src/taskTelemetry.js';
import { LegacyClient } from './era-2025/legacyHarness.js';
import { expectCreateTask, Loopback } from './harness.js';

const OWNER = '\u0000anonymous';
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;

/** A reader the test collects from on demand. */
class TestReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function telemetry() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  cleanups.push(() => Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]));
  const options: TelemetryOptions = { tracerProvider, meterProvider };
  /** The data points of metric `name` at this moment. */
  const points = async (name: string): Promise<DataPoint<number | Histogram>[]> => {
    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((m) => m.descriptor.name === name);
    return (metric?.dataPoints ?? []) as DataPoint<number | Histogram>[];
  };
  return { spans, options, points };
}

function instance(workerId: string, store: InMemoryTaskStore, telemetryOptions: TelemetryOptions) {
  const server = new McpServer({
    serverInfo: { name: workerId, version: '1.0.0' },
    taskStore: store,
    closeTaskStore: false,
    tasks: { workerId, leaseMs: 2_000 },
    execution: { claimIntervalMs: 20, parkAfterMs: 10 },
    telemetry: telemetryOptions,
  });
  cleanups.push(() => server.close({ graceMs: 100 }));
  server.tool({
    name: 'approve',
    description: 'Prepares, asks, applies',
    taskSupport: 'required',
    durable: true,
    handler: async (_args, ctx) => {
      await ctx.step('prepare', () => 'ready');
      const answer = await ctx.elicit({
        message: 'Approve?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      });
      const applied = await ctx.step('apply', () => (answer.content?.ok === true ? 'applied' : 'skipped'));
      return { content: [{ type: 'text', text: applied }] };
    },
  });
  return { server, client: new Loopback(server) };
}

const named = (spans: readonly ReadableSpan[], name: string) => {
  const found = spans.filter((span) => span.name === name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const sumOf = (points: DataPoint<number | Histogram>[], attributes: Record<string, string> = {}) =>
  points
    .filter((point) => Object.entries(attributes).every(([key, value]) => point.attributes[key] === value))
    .reduce((total, point) => total + (typeof point.value === 'number' ? point.value : point.value.count), 0);

describe('task telemetry', () => {
  it('follows a task from the caller through parking, a resume on another instance, to completion', async () => {
    const store = new InMemoryTaskStore();
    cleanups.push(() => store.close());
    const { spans, options, points } = telemetry();
    const a = instance('worker-a', store, options);
    const b = instance('worker-b', store, options);
    const taskId = expectCreateTask(await a.client.call('approve', {}, { meta: { traceparent: TRACEPARENT } }));
    await vi.waitFor(async () => expect((await store.get(OWNER, taskId))?.execution?.state).toBe('parked'));
    await vi.waitFor(() => expect(spans.getFinishedSpans().map((span) => span.name)).toContain('task approve'));
    expect(sumOf(await points('mcp.tasks.parked'), { [A.tool]: 'approve' })).toBe(1);
    expect(sumOf(await points('mcp.tasks.live'), { [A.status]: 'input_required' })).toBe(1);
    // Instance a goes away: the task lives on in the store, and only b can run it.
    await a.server.close({ graceMs: 100 });

    const asked = await b.client.waitForTask(taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(asked.inputRequests as object);
    await b.client.ok('tasks/update', {
      taskId,
      inputResponses: { [key ?? '']: { action: 'accept', content: { ok: true } } },
    });
    expect(await b.client.waitForTerminal(taskId)).toMatchObject({ status: 'completed' });
    await vi.waitFor(() => expect(spans.getFinishedSpans().map((span) => span.name)).toContain('task approve run'));

    const finished = spans.getFinishedSpans();
    expect(new Set(finished.map((span) => span.spanContext().traceId))).toEqual(new Set([CALLER_TRACE]));
    // The task's span: a child of the caller's, ended when the task left instance a (parked).
    const task = named(finished, 'task approve');
    expect(task.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(task.attributes).toMatchObject({ [A.taskId]: taskId, [A.tool]: 'approve', [A.worker]: 'worker-a' });
    expect(task.attributes[A.ended]).toBe('parked');
    expect(task.events.map((event) => event.name)).toEqual(expect.arrayContaining(['status', 'parked']));
    // Its context is stored with the task, for the instance that resumes it.
    const stored = parseTraceparent((await store.get(OWNER, taskId))?.requestMeta?.traceparent);
    expect(stored?.spanId).toBe(task.spanContext().spanId);
    const wait = named(finished, 'input wait');
    expect(wait.parentSpanContext?.spanId).toBe(task.spanContext().spanId);
    expect(wait.attributes[A.ended]).toBe('parked');
    expect(named(finished, 'step prepare').parentSpanContext?.spanId).toBe(task.spanContext().spanId);

    // The run on instance b: child of the task's span and linked to it; the replayed step is an event.
    const run = named(finished, 'task approve run');
    expect(run.parentSpanContext?.spanId).toBe(task.spanContext().spanId);
    expect(run.links.map((link) => link.context.spanId)).toEqual([task.spanContext().spanId]);
    expect(run.attributes).toMatchObject({ [A.worker]: 'worker-b', [A.attempt]: 2, [A.status]: 'completed' });
    expect(run.status.code).toBe(1); // OK
    expect(run.events.map((event) => event.name)).toEqual(expect.arrayContaining(['step replayed', 'status']));
    expect(named(finished, 'step apply').parentSpanContext?.spanId).toBe(run.spanContext().spanId);

    expect(sumOf(await points('mcp.tasks.created'), { [A.tool]: 'approve' })).toBe(1);
    expect(sumOf(await points('mcp.tasks.finished'), { [A.tool]: 'approve', [A.status]: 'completed' })).toBe(1);
    expect(sumOf(await points('mcp.tasks.live'))).toBe(0);
    expect(sumOf(await points('mcp.tasks.parked'))).toBe(0);
    expect(sumOf(await points('mcp.task.step.duration'), { [A.tool]: 'approve' })).toBe(2);
    expect(sumOf(await points('mcp.task.input_wait.duration'), { [A.tool]: 'approve' })).toBe(1);
    expect(sumOf(await points('mcp.task.reruns'), { [A.tool]: 'approve' })).toBe(1);
    expect(sumOf(await points('mcp.task.polls'))).toBeGreaterThan(1);
    const operations = new Set(
      (await points('mcp.task_store.operation.duration')).map((p) => p.attributes[A.operation]),
    );
    for (const operation of ['create', 'get', 'update', 'recordStep', 'steps', 'claim']) {
      expect(operations, operation).toContain(operation);
    }
  });
});

describe('a retried step', () => {
  it('is an error step span and a retry event; the task is handed back, and its next run is a re-run', async () => {
    const { spans, options, points } = telemetry();
    const server = new McpServer({
      serverInfo: { name: 'retry', version: '1.0.0' },
      telemetry: options,
      execution: { claimIntervalMs: 20, retry: { initialDelayMs: 10 } },
    });
    cleanups.push(() => server.close());
    let busy = true;
    server.tool({
      name: 'publish',
      description: 'Fails once with a retryable error',
      taskSupport: 'required',
      durable: true,
      handler: async (_args, ctx) => {
        await ctx.step('upload', () => {
          if (!busy) return 'uploaded';
          busy = false;
          throw new RetryableError('registry busy');
        });
        return { content: [{ type: 'text', text: 'published' }] };
      },
    });
    const client = new Loopback(server);
    const taskId = expectCreateTask(await client.call('publish'));
    expect(await client.waitForTerminal(taskId)).toMatchObject({ status: 'completed' });
    await vi.waitFor(() => expect(spans.getFinishedSpans().map((span) => span.name)).toContain('task publish run'));
    const finished = spans.getFinishedSpans();
    const task = named(finished, 'task publish');
    expect(task.attributes[A.ended]).toBe('handed_back');
    expect(task.events.map((event) => event.name)).toContain('retry');
    const uploads = finished.filter((span) => span.name === 'step upload');
    expect(uploads.map((span) => span.status.code)).toEqual([2, 0]); // ERROR, then UNSET
    expect(uploads[0]?.events.map((event) => event.name)).toEqual(['exception']);
    expect(named(finished, 'task publish run').attributes).toMatchObject({ [A.attempt]: 2, [A.status]: 'completed' });
    expect(sumOf(await points('mcp.task.reruns'), { [A.tool]: 'publish' })).toBe(1);
  });
});

describe('a run that starts before the release of the run before it reached telemetry', () => {
  it("ends the task span with that run's abort (handed back), not as superseded", () => {
    const { spans, options } = telemetry();
    const hooks = TaskTelemetry.create(options, 'worker-a');
    const first = new CallAbort();
    const requestMeta = hooks?.taskCreating('t-1', { name: 'publish' }, undefined, first) ?? {};
    // The first run handed its task back (its call aborted so), and another run claimed it before its release.
    first.abort(new TaskAbortError('handed_back', 'Handed back'));
    const record = {
      taskId: 't-1',
      status: 'working',
      requestMeta,
      execution: { attempt: 2 },
    } as unknown as TaskRecord;
    hooks?.runStarting(record, new CallAbort());
    expect(named(spans.getFinishedSpans(), 'task publish').attributes[A.ended]).toBe('handed_back');
    // The late release of the first run ends nothing more.
    hooks?.runEnded('t-1', first, 'publish', first.reason);
    expect(spans.getFinishedSpans().map((span) => span.name)).toEqual(['task publish']);
  });
});

describe('the context of a tool run', () => {
  it('is its task span (a step function: its step span), so the spans and log lines of the handler join the trace', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    cleanups.push(async () => context.disable());
    const { spans, options } = telemetry();
    const active = () => trace.getActiveSpan()?.spanContext().spanId;
    const seen: Record<string, string | undefined> = {};
    const server = new McpServer({
      serverInfo: { name: 'context', version: '1.0.0' },
      telemetry: options,
      execution: { onEvent: (event) => (seen[`event ${event.type}`] = active()) },
    });
    cleanups.push(() => server.close());
    server.tool({
      name: 'work',
      description: 'One step',
      taskSupport: 'required',
      durable: true,
      handler: async (_args, ctx) => {
        seen.handler = active();
        await ctx.step('one', () => {
          seen.step = active();
        });
        return { content: [{ type: 'text', text: 'done' }] };
      },
    });
    const client = new Loopback(server);
    const taskId = expectCreateTask(await client.call('work'));
    await client.waitForTerminal(taskId);
    const task = named(spans.getFinishedSpans(), 'task work').spanContext().spanId;
    const step = named(spans.getFinishedSpans(), 'step one');
    expect(step.parentSpanContext?.spanId).toBe(task);
    // The step's function runs in the step's span; the handler and the events in the task's.
    expect(seen).toEqual({ handler: task, step: step.spanContext().spanId, 'event step': task });
  });
});

describe('task telemetry in a 2025-11-25 session', () => {
  it('parents the task span on the _meta.traceparent of a task-augmented call, and counts its polls', async () => {
    const { spans, options, points } = telemetry();
    const server = new McpServer({ serverInfo: { name: 'legacy', version: '1.0.0' }, telemetry: options });
    cleanups.push(() => server.close());
    server.tool({
      name: 'job',
      description: 'Finishes at once',
      taskSupport: 'optional',
      handler: () => ({ content: [{ type: 'text', text: 'job done' }] }),
    });
    const client = new LegacyClient(server);
    await client.connect();
    const created = await client.ok('tools/call', {
      name: 'job',
      arguments: {},
      task: { ttl: 60_000 },
      _meta: { traceparent: TRACEPARENT },
    });
    const { taskId } = created.task as { taskId: string };
    await vi.waitFor(async () => expect((await client.ok('tasks/get', { taskId })).status).toBe('completed'));
    const task = named(spans.getFinishedSpans(), 'task job');
    expect(task.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(task.spanContext().traceId).toBe(CALLER_TRACE);
    expect(task.attributes).toMatchObject({ [A.taskId]: taskId, [A.status]: 'completed' });
    expect(sumOf(await points('mcp.task.polls'), { [A.status]: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(sumOf(await points('mcp.tasks.finished'), { [A.tool]: 'job', [A.status]: 'completed' })).toBe(1);
  });
});

describe('TaskTelemetry', () => {
  it('counts a run that lost its lease, and ends only the span of the run that ended', async () => {
    const { spans, options, points } = telemetry();
    const telemetryOn = TaskTelemetry.create(options, 'w');
    if (telemetryOn === undefined) throw new Error('telemetry is off');
    const older = {};
    const newer = {};
    telemetryOn.taskCreating('t1', { name: 'job' }, undefined, older);
    const record = { taskId: 't1', status: 'working', requestMeta: { name: 'job' }, execution: { attempt: 2 } };
    telemetryOn.runStarting(record as never, newer);
    telemetryOn.runEnded('t1', older, 'job', new TaskAbortError('lease_lost', 'taken over'));
    expect(spans.getFinishedSpans().map((span) => span.attributes[A.ended])).toEqual(['superseded']);
    telemetryOn.runEnded('t1', newer, 'job', undefined);
    expect(spans.getFinishedSpans().map((span) => span.attributes[A.ended])).toEqual(['superseded', 'released']);
    expect(sumOf(await points('mcp.task.lease_losses'), { [A.tool]: 'job' })).toBe(1);
    expect(sumOf(await points('mcp.task.reruns'), { [A.tool]: 'job' })).toBe(1);
  });
});

describe('TaskTelemetry.create', () => {
  it('is off (no hooks at all) while no provider is configured, on with one', () => {
    expect(trace.getTracerProvider()).toBeDefined();
    expect(metrics.getMeterProvider()).toBeDefined();
    expect(TaskTelemetry.create(undefined, 'w')).toBeUndefined();
    expect(TaskTelemetry.create({}, 'w')).toBeUndefined();
    const { options } = telemetry();
    expect(TaskTelemetry.create({ tracerProvider: options.tracerProvider }, 'w')?.metrics).toBeUndefined();
    expect(TaskTelemetry.create({ meterProvider: options.meterProvider }, 'w')?.metrics).toBeDefined();
  });

  it('parses and formats W3C traceparent values', () => {
    expect(parseTraceparent(TRACEPARENT)).toMatchObject({ traceId: CALLER_TRACE, spanId: CALLER_SPAN, traceFlags: 1 });
    expect(parseTraceparent(`00-${'0'.repeat(32)}-${CALLER_SPAN}-01`)).toBeUndefined();
    expect(parseTraceparent('00-abc-def-01')).toBeUndefined();
    expect(parseTraceparent(`ff-${CALLER_TRACE}-${CALLER_SPAN}-01`)).toBeUndefined();
    expect(parseTraceparent(`01-${CALLER_TRACE}-${CALLER_SPAN}-00-later`)).toMatchObject({ traceFlags: 0 });
    expect(parseTraceparent(42)).toBeUndefined();
  });
});
