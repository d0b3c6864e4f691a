/**
 * Tells the result shapes of MCP 2026-07-28 apart by `resultType` and rejects the ones a request cannot receive.
 */
import {
  type CreateTaskResult,
  CreateTaskResultSchema,
  type InputRequiredResult,
  InputRequiredResultSchema,
  withFields,
} from '@mcp-tasks/protocol';
import { InvalidResponseError } from './errors.js';
import type { RawResult } from './rpcClient.js';

/** Methods on which a server may answer `input_required` (MRTR). */
const MRTR_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** Methods on which a server may answer with a task (the Tasks extension supports only `tools/call` today). */
const TASK_METHODS: ReadonlySet<string> = new Set(['tools/call']);

/**
 * A result sorted by its `resultType`. `Complete` is the type of a final result: the raw result as received, or
 * its parsed form (a `tools/call` gives a `CallToolResult`: see `RawCallToolResult`).
 */
export type ClassifiedResult<Complete = RawResult> =
  | {
      /** The final result (`resultType` `complete` or absent). */
      readonly kind: 'complete';
      /** The final result. */
      readonly result: Complete;
    }
  | {
      /** The server asks for input before it answers (MRTR): answer it and send the request again. */
      readonly kind: 'input_required';
      /** The result carrying `inputRequests` and `requestState`. */
      readonly result: InputRequiredResult;
    }
  | {
      /** The server created a task to answer later. */
      readonly kind: 'task';
      /** The created task, to drive with `resumeTask` or the task methods. */
      readonly task: CreateTaskResult;
    };

/**
 * Sorts `result` (the answer to `method`). A missing `resultType` means `complete`. `input_required` is
 * accepted only on the MRTR methods and must carry `inputRequests` or `requestState`. `task` is accepted only on
 * `tools/call` and only when the request declared the Tasks extension (`acceptsTask`). Anything else, and any
 * shape that fails its schema, throws `InvalidResponseError`. The `complete` payload is returned unchecked (with
 * `resultType: "complete"` filled in when missing): the caller validates it against the method's result schema.
 */
export function classifyResult(method: string, result: RawResult, acceptsTask: boolean): ClassifiedResult {
  const resultType = result.resultType;
  // Normalised so the method's schema (which requires resultType) accepts results from older servers.
  if (resultType === undefined) return { kind: 'complete', result: withFields(result, { resultType: 'complete' }) };
  if (resultType === 'complete') return { kind: 'complete', result };
  if (resultType === 'input_required') {
    if (!MRTR_METHODS.has(method)) throw new InvalidResponseError(method, 'input_required is not allowed here');
    const parsed = InputRequiredResultSchema.safeParse(result);
    if (!parsed.success)
      throw new InvalidResponseError(method, 'malformed InputRequiredResult', { cause: parsed.error });
    if (parsed.data.inputRequests === undefined && parsed.data.requestState === undefined) {
      throw new InvalidResponseError(method, 'InputRequiredResult has neither inputRequests nor requestState');
    }
    return { kind: 'input_required', result: parsed.data };
  }
  if (resultType === 'task') {
    if (!TASK_METHODS.has(method))
      throw new InvalidResponseError(method, 'a task result is not allowed for this method');
    if (!acceptsTask)
      throw new InvalidResponseError(method, 'a task result for a request that did not declare the Tasks extension');
    const parsed = CreateTaskResultSchema.safeParse(result);
    if (!parsed.success) throw new InvalidResponseError(method, 'malformed CreateTaskResult', { cause: parsed.error });
    return { kind: 'task', task: parsed.data };
  }
  throw new InvalidResponseError(method, `unknown resultType ${JSON.stringify(resultType)}`);
}
