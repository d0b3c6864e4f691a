import { isRecord } from '@mcp-tasks/protocol';
import type { HeaderLookup } from './checkParamHeaders.js';

/**
 * Carries the W3C Trace Context headers (`traceparent`, `tracestate`) of a `tools/call` POST into the request's
 * `params._meta`, where the runtime reads the caller's span (the MCP convention for trace context), unless `_meta`
 * names a span itself: a client that sets both meant the one in the message. Only `tools/call` (the request that
 * starts a task) pays the header lookup. A request without `_meta` gets none (its refusal stays the same), except a
 * 2025-era one (`legacy`), where `_meta` is optional.
 */
export function carryTraceHeaders(message: unknown, header: HeaderLookup, legacy: boolean): void {
  if (!isRecord(message) || message.method !== 'tools/call' || !isRecord(message.params)) return;
  const traceparent = header('traceparent');
  if (traceparent === undefined) return;
  const { params } = message;
  const meta = params._meta;
  if (isRecord(meta) ? meta.traceparent !== undefined : !legacy || meta !== undefined) return;
  const tracestate = header('tracestate');
  params._meta = { ...(isRecord(meta) ? meta : {}), traceparent, ...(tracestate === undefined ? {} : { tracestate }) };
}
