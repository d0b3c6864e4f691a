import { type Context, context, createTraceState, type SpanContext, trace } from '@opentelemetry/api';

/**
 * W3C Trace Context in MCP `_meta`: a request's `_meta.traceparent` (and `_meta.tracestate`) names the caller's span,
 * as the MCP convention for trace propagation proposes (the keys and values of the HTTP headers of the same name).
 * Parsed here rather than through a registered propagator, so the caller's trace is followed whatever the host set up.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const INVALID_TRACE_ID = '0'.repeat(32);
const INVALID_SPAN_ID = '0'.repeat(16);

/**
 * The span context a `traceparent` value names (version `00`, or a later version read as `00` as the W3C
 * recommendation says), with `tracestate` when given; undefined when it is malformed or names no span.
 */
export function parseTraceparent(traceparent: unknown, tracestate?: unknown): SpanContext | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = TRACEPARENT.exec(traceparent.trim().toLowerCase());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  if (version === 'ff' || (version === '00' && traceparent.trim().length !== 55)) return undefined;
  if (traceId === INVALID_TRACE_ID || spanId === INVALID_SPAN_ID) return undefined;
  const spanContext: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & 1, isRemote: true };
  if (typeof tracestate === 'string' && tracestate.length > 0) spanContext.traceState = createTraceState(tracestate);
  return spanContext;
}

/** The `traceparent` value of `spanContext` (version `00`). */
export function formatTraceparent(spanContext: SpanContext): string {
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/** The caller's span a request's `_meta` names (`traceparent`, `tracestate`), or undefined. */
export function spanContextFromMeta(meta: { readonly [key: string]: unknown } | undefined): SpanContext | undefined {
  return meta === undefined ? undefined : parseTraceparent(meta.traceparent, meta.tracestate);
}

/** `parent` as the span to start children under: the active context with that span, or the active context. */
export function contextWithParent(parent: SpanContext | undefined): Context {
  const active = context.active();
  return parent === undefined ? active : trace.setSpanContext(active, parent);
}
