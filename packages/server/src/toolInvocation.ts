import { type CallToolResult, isProtocolError, type ProtocolError, withFields } from '@mcp-tasks/protocol';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import { InputRequired } from './mrtr.js';
import type { ToolContext } from './toolContext.js';
import type { RegisteredTool, ToolResult } from './toolRegistry.js';

/** How a tool handler ended; computing it never throws. */
export type ToolOutcome =
  | { readonly kind: 'result'; readonly result: ToolResult }
  | { readonly kind: 'input'; readonly marker: InputRequired }
  /** A JSON-RPC error the handler chose: answered as an error, or the task ends `failed`. */
  | { readonly kind: 'protocolError'; readonly error: ProtocolError }
  /** Any other exception: becomes an `isError: true` result. */
  | { readonly kind: 'exception'; readonly error: unknown };

/** Runs a tool handler: resolves or rejects as it does (a synchronous throw becomes a rejection). */
export function runTool(tool: RegisteredTool, args: unknown, ctx: ToolContext): Promise<unknown> {
  try {
    return Promise.resolve(tool.definition.handler(args as JsonObject, ctx));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * How a tool's run (from {@link runTool}) ended; a malformed return value counts as an exception. Written with
 * `then` rather than `async`/`await`, with module-level handlers: a task's tool may wait for hours, and a suspended
 * async function (a generator and its registers) or a closure per call would be kept all that time, for every task.
 */
export function toolOutcome(run: Promise<unknown>): Promise<ToolOutcome> {
  return run.then(returnedOutcome, thrownOutcome);
}

/** Runs a tool handler and classifies how it ended ({@link runTool}, then {@link toolOutcome}). */
export function invokeTool(tool: RegisteredTool, args: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  return toolOutcome(runTool(tool, args, ctx));
}

/** The outcome of a run that resolved with `value`. */
export function returnedOutcome(value: unknown): ToolOutcome {
  if (value instanceof InputRequired) return { kind: 'input', marker: value };
  if (!isJsonObject(value) || !Array.isArray(value.content)) {
    return { kind: 'exception', error: new Error('The tool returned no content array') };
  }
  return { kind: 'result', result: value as unknown as ToolResult };
}

/** The outcome of a run that threw or rejected with `error`. */
export function thrownOutcome(error: unknown): ToolOutcome {
  return isProtocolError(error) ? { kind: 'protocolError', error } : { kind: 'exception', error };
}

/** A `CallToolResult` the model can read, reporting a failure (`isError: true`). */
export function toolErrorResult(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** The text shown to the model for an exception thrown by a tool. */
export function exceptionMessage(error: unknown): string {
  return error instanceof Error && error.message !== '' ? error.message : 'The tool failed';
}

/**
 * The wire `CallToolResult`: the handler's result plus `resultType: "complete"`. The handler's arrays are put on
 * the wire as they are (a result is serialized, never mutated), hence the cast from the read-only {@link ToolResult}.
 */
export function completeToolResult(result: ToolResult): CallToolResult {
  return withFields(result, { resultType: 'complete' }) as CallToolResult;
}
