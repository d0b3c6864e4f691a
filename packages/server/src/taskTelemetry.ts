import { isTerminalStatus, type TaskEvent, type TaskOperationsOptions, type TaskRecord } from '@mcp-tasks/task-store';
import {
  type Attributes,
  type Context,
  context,
  createNoopMeter,
  type Link,
  metrics,
  ProxyTracerProvider,
  type Span,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { CallAbort } from './callAbort.js';
import type { ExecutionEvent } from './durableCall.js';
import type { JsonObject } from './jsonRpc.js';
import { isTaskAbort, type TaskAbortKind } from './taskAbort.js';
import { TELEMETRY_ATTRIBUTES as A, TaskMetrics, toolOf } from './taskMetrics.js';
import type { TelemetryOptions } from './telemetryOptions.js';
import { contextWithParent, formatTraceparent, spanContextFromMeta } from './traceContext.js';

const SCOPE = '@mcp-tasks/server';
/** The provider `trace.getTracerProvider()` delegates to while no SDK registered one. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const NOOP_METER = createNoopMeter();

/** What this process holds of a task it runs: the span of the run, its context, and an open input wait. */
interface TaskSpan {
  /** The run the span belongs to (a supervisor's call): a newer run of the same task replaces it. */
  readonly run: object;
  readonly span: Span;
  readonly context: Context;
  readonly tool: string;
  /** The newest record version applied to the span (own writes and the change feed both report each). */
  version: number;
  status: string;
  inputWait: Span | undefined;
}

/**
 * The OpenTelemetry side of a server's tasks: one span per task from its creation to its terminal status (child of
 * the caller's span named by `_meta.traceparent`), and in each later process that runs it (claimed after parking,
 * a hand-back or a retry, or resumed after a lost worker) a run span, child of the task span (whose context the
 * task stores in `requestMeta`) and linked to it. Steps and input waits are child spans; status changes, replayed
 * steps, retries, parking and hand-backs are events. A span this process holds ends when the task ends or leaves
 * this process. Metrics: see {@link TaskMetrics}. Created only when a tracer or meter provider is configured.
 */
export class TaskTelemetry {
  readonly metrics: TaskMetrics | undefined;
  readonly #tracer: Tracer | undefined;
  readonly #workerId: string;
  readonly #spans = new Map<string, TaskSpan>();

  constructor(tracer: Tracer | undefined, taskMetrics: TaskMetrics | undefined, workerId: string) {
    this.#tracer = tracer;
    this.metrics = taskMetrics;
    this.#workerId = workerId;
  }

  /**
   * The telemetry of a server whose host configured OpenTelemetry (`options`, or the global providers), or
   * undefined when neither traces nor metrics would be recorded: then the server skips every hook.
   */
  static create(options: TelemetryOptions | undefined, workerId: string): TaskTelemetry | undefined {
    let tracerProvider = options?.tracerProvider ?? trace.getTracerProvider();
    if (tracerProvider instanceof ProxyTracerProvider) tracerProvider = tracerProvider.getDelegate();
    const tracer = tracerProvider === NOOP_TRACER_PROVIDER ? undefined : tracerProvider.getTracer(SCOPE);
    const meter = (options?.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE);
    const taskMetrics = meter === NOOP_METER ? undefined : new TaskMetrics(meter);
    if (tracer === undefined && taskMetrics === undefined) return undefined;
    return new TaskTelemetry(tracer, taskMetrics, workerId);
  }

  /**
   * Starts the span of a task about to be created, as a child of the caller's span (`callerMeta`, the request's
   * `_meta`); resolves with `requestMeta` carrying the task span's `traceparent`, for the runs of other processes.
   */
  taskCreating(taskId: string, requestMeta: JsonObject, callerMeta: JsonObject | undefined, run: object): JsonObject {
    const tracer = this.#tracer;
    if (tracer === undefined) return requestMeta;
    const tool = typeof requestMeta.name === 'string' ? requestMeta.name : 'unknown';
    const attributes = { [A.taskId]: taskId, [A.tool]: tool, [A.worker]: this.#workerId };
    const parent = contextWithParent(spanContextFromMeta(callerMeta));
    const span = tracer.startSpan(`task ${tool}`, { attributes }, parent);
    this.#hold(taskId, run, span, parent, tool);
    return { ...requestMeta, traceparent: formatTraceparent(span.spanContext()) };
  }

  /**
   * A run of an existing task starts in this process (a worker claimed it, or a resumable tool is resumed): a run
   * span, child of the task's span and linked to it; counted as a re-run unless it is a queued task's first run.
   */
  runStarting(record: TaskRecord, run: object): void {
    const tool = toolOf(record);
    const attempt = record.execution?.attempt;
    if (attempt === undefined || attempt > 1) this.metrics?.rerun(tool);
    const tracer = this.#tracer;
    if (tracer === undefined) return;
    // The run before, if its release has not reached us yet: why it stopped (handed back, parked…) if it says.
    const before = this.#spans.get(record.taskId)?.run;
    this.#end(record.taskId, abortKindOf(before instanceof CallAbort ? before.reason : undefined) ?? 'superseded');
    const stored = spanContextFromMeta(record.requestMeta);
    const links: Link[] = stored === undefined ? [] : [{ context: stored }];
    const attributes: Attributes = { [A.taskId]: record.taskId, [A.tool]: tool, [A.worker]: this.#workerId };
    if (attempt !== undefined) attributes[A.attempt] = attempt;
    const parent = contextWithParent(stored);
    const span = tracer.startSpan(`task ${tool} run`, { attributes, links }, parent);
    this.#hold(record.taskId, run, span, parent, tool).status = record.status;
  }

  /** Runs `fn` (a tool's handler) in the context of the task's span, so its own spans and logs join the trace. */
  runIn<T>(taskId: string, fn: () => T): T {
    const held = this.#spans.get(taskId);
    return held === undefined ? fn() : context.with(held.context, fn);
  }

  /**
   * A run (`run`, of `tool` for `taskId`) in this process ended: its call was released; `reason` is its abort
   * reason, if any. Its span, still open when the task parked, was handed back, lost or left, ends saying why.
   */
  runEnded(taskId: string, run: object, tool: string, reason: unknown): void {
    const kind = abortKindOf(reason);
    if (kind === 'lease_lost') this.metrics?.leaseLost(tool);
    if (this.#spans.get(taskId)?.run === run) this.#end(taskId, kind ?? 'released');
  }

  /** Ends the span of a task that was never created (the store refused it) or left this process at once. */
  left(taskId: string, why: string, error?: unknown): void {
    const held = this.#spans.get(taskId);
    if (held !== undefined && error !== undefined) {
      held.span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
    }
    this.#end(taskId, why);
  }

  /** `TaskOperations` `onWrite`: metrics of every write, and the spans of this process's tasks. */
  readonly onWrite = (before: TaskRecord | undefined, after: TaskRecord): void => {
    this.metrics?.written(before, after);
    this.#apply(after);
  };

  /** The change feed (writes of any instance): status changes of the tasks this process runs. */
  readonly observe = (event: TaskEvent): void => {
    if (event.type === 'expired') this.#end(event.record.taskId, 'expired');
    else this.#apply(event.record);
  };

  /** Whether spans are recorded (a tracer provider is configured). */
  get tracing(): boolean {
    return this.#tracer !== undefined;
  }

  /**
   * Runs a durable step's function in its span (`step <name>`, child of the task's span in this process), so the
   * spans it makes nest under it; an exception is recorded on the span, which ends when the function settles.
   */
  readonly traceStep = <T>(taskId: string, step: string, attempt: number, run: () => T | Promise<T>): Promise<T> => {
    const held = this.#spans.get(taskId);
    const tracer = this.#tracer;
    if (held === undefined || tracer === undefined) return Promise.resolve().then(run);
    const attributes = { [A.taskId]: taskId, [A.step]: step, [A.attempt]: attempt };
    return tracer.startActiveSpan(`step ${step}`, { attributes }, held.context, async (span) => {
      try {
        return await run();
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
      }
    });
  };

  /** The durable runtime's events: step durations, and events on the task's span. */
  readonly onEvent = (event: ExecutionEvent): void => {
    const held = this.#spans.get(event.taskId);
    if (event.type === 'step' && !event.replayed) {
      this.metrics?.step(held?.tool ?? 'unknown', event.durationMs);
      return;
    }
    if (held === undefined) return;
    const { type, taskId: _taskId, ...details } = event;
    held.span.addEvent(type === 'step' ? 'step replayed' : type, prefixed(details));
  };

  /** `tasks/get` answered with `record`. */
  poll(record: TaskRecord): void {
    this.metrics?.poll(record);
  }

  #hold(taskId: string, run: object, span: Span, parent: Context, tool: string): TaskSpan {
    const held: TaskSpan = {
      run,
      span,
      context: trace.setSpan(parent, span),
      tool,
      version: 0,
      status: 'working',
      inputWait: undefined,
    };
    this.#spans.set(taskId, held);
    return held;
  }

  /** A newer record of a task this process holds a span of: status events, input waits, the end. */
  #apply(record: TaskRecord): void {
    const held = this.#spans.get(record.taskId);
    if (held === undefined || record.version <= held.version) return;
    held.version = record.version;
    if (record.status === held.status) return;
    held.status = record.status;
    const attributes = {
      [A.status]: record.status,
      ...(record.statusMessage ? { message: record.statusMessage } : {}),
    };
    held.span.addEvent('status', attributes);
    held.inputWait?.end();
    held.inputWait = undefined;
    if (record.status === 'input_required' && this.#tracer !== undefined) {
      const attrs = { [A.taskId]: record.taskId, keys: Object.keys(record.inputRequests).join(',') };
      held.inputWait = this.#tracer.startSpan('input wait', { attributes: attrs }, held.context);
    }
    if (isTerminalStatus(record.status)) this.#finish(record, held);
  }

  #finish(record: TaskRecord, held: TaskSpan): void {
    held.span.setAttribute(A.status, record.status);
    if (record.status === 'failed') {
      held.span.setStatus({ code: SpanStatusCode.ERROR, message: record.error?.message ?? 'failed' });
    } else if (record.status === 'completed') {
      const toolError = record.result?.isError === true;
      held.span.setStatus(
        toolError ? { code: SpanStatusCode.ERROR, message: 'tool error' } : { code: SpanStatusCode.OK },
      );
    }
    this.#end(record.taskId, record.status);
  }

  #end(taskId: string, why: string): void {
    const held = this.#spans.get(taskId);
    if (held === undefined) return;
    this.#spans.delete(taskId);
    held.inputWait?.setAttribute(A.ended, why);
    held.inputWait?.end();
    held.span.setAttribute(A.ended, why);
    held.span.end();
  }
}

/** An execution event's details as span event attributes (`mcp.task.<field>`). */
function prefixed(details: { readonly [key: string]: unknown }): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(details)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      attributes[`mcp.task.${key}`] = value;
    }
  }
  return attributes;
}

/** The `TaskOperations` hooks of `telemetry`: its write observer, and with metrics the store call timer. */
export function telemetryHooks(
  telemetry: TaskTelemetry | undefined,
): Pick<TaskOperationsOptions, 'onWrite' | 'onStoreCall'> {
  if (telemetry === undefined) return {};
  const taskMetrics = telemetry.metrics;
  if (taskMetrics === undefined) return { onWrite: telemetry.onWrite };
  return {
    onWrite: telemetry.onWrite,
    onStoreCall: (operation, durationMs, failed) => taskMetrics.storeCall(operation, durationMs, failed),
  };
}

/** `onEvent`, told to `telemetry` first when there is one. */
export function withTelemetry(
  onEvent: (event: ExecutionEvent) => void,
  telemetry: TaskTelemetry | undefined,
): (event: ExecutionEvent) => void {
  if (telemetry === undefined) return onEvent;
  return (event) => {
    telemetry.onEvent(event);
    onEvent(event);
  };
}

/** The kind of an abort `reason`, when it is one of the runtime's (handed back, parked, lease lost…). */
function abortKindOf(reason: unknown): TaskAbortKind | undefined {
  return isTaskAbort(reason) ? reason.kind : undefined;
}
