/**
 * Answers input requests (MRTR `inputRequests` and task `inputRequests` alike) with the application's handlers.
 * Each entry is handled exactly as the equivalent standalone request would be: the same handler, the same
 * consent flow. A task is not a higher-trust channel.
 */
import {
  type CreateMessageRequest,
  type CreateMessageResult,
  CreateMessageResultSchema,
  type ElicitRequest,
  type ElicitResult,
  ElicitResultSchema,
  type InputRequest,
  type InputResponse,
  type InputResponses,
  type ListRootsRequest,
  type ListRootsResult,
  ListRootsResultSchema,
} from '@mcp-tasks/protocol';
import type { z } from 'zod';
import { InputHandlerError } from './errors.js';

/**
 * The request an input request belongs to: the call the application made (e.g. `tools/call` with the tool's name
 * and arguments), so a host can show which tool is asking before it asks the user.
 */
export interface InputOrigin {
  /** The method of the request that asked (`tools/call`, `prompts/get`, `resources/read`, ...). */
  readonly method: string;
  /**
   * That request's params as the application passed them (for `tools/call`: `name` and `arguments`), without the
   * `_meta` envelope the client adds and without the MRTR retry fields (`inputResponses`, `requestState`). Undefined when the client does not know them: a task
   * resumed by id with no journal entry for it.
   */
  readonly params?: Readonly<Record<string, unknown>> | undefined;
  /** The task asking, when the input request came from a task's `input_required` state (answered by `tasks/update`). */
  readonly taskId?: string | undefined;
}

/**
 * What every input handler is told besides the input request's own params: which input request this is, which
 * call and tool it belongs to, and a signal to stop asking. Handlers of concurrent calls run concurrently; use
 * `taskId`/`toolName` to tell them apart.
 */
export interface InputContext {
  /**
   * The server-assigned key of this input request (unique within the request, or the task's lifetime); in a
   * 2025-era session, the JSON-RPC id of the server's request.
   */
  readonly key: string;
  /** Aborted when the call this input belongs to is aborted. */
  readonly signal: AbortSignal;
  /**
   * The method of the request that asked (`tools/call`, `prompts/get`, `resources/read`, ...). In a 2025-era
   * session the server does not say which call a request serves: this is the client's call in flight when there
   * is exactly one (or the one running the related task), otherwise the server request's own method.
   */
  readonly method: string;
  /** The tool being called, for `tools/call` (also for a resumed task the journal knows); otherwise undefined. */
  readonly toolName?: string | undefined;
  /** The asking request's params as the application passed them; see {@link InputOrigin.params}. */
  readonly params?: Readonly<Record<string, unknown>> | undefined;
  /** The task asking, when inside a task; undefined for an MRTR round of a request that is not (yet) a task. */
  readonly taskId?: string | undefined;
}

/** Answers `elicitation/create`. A throw or rejection is answered as `{ action: "cancel" }`. */
export type ElicitationHandler = (
  params: ElicitRequest['params'],
  context: InputContext,
) => ElicitResult | Promise<ElicitResult>;

/**
 * Answers `sampling/createMessage`. Its result type cannot decline, so a throw or rejection ends the call with an
 * `InputHandlerError` (and, inside a task, a best-effort `tasks/cancel`).
 */
export type SamplingHandler = (
  params: CreateMessageRequest['params'],
  context: InputContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/** Answers `roots/list`. A throw or rejection ends the call like a failing sampling handler. */
export type RootsHandler = (
  params: ListRootsRequest['params'],
  context: InputContext,
) => ListRootsResult | Promise<ListRootsResult>;

/** The application's input handlers. Each registered one is declared as a client capability on every request. */
export interface InputHandlers {
  /** Answers `elicitation/create` requests (form and URL mode); declares the elicitation capability. */
  readonly elicitation?: ElicitationHandler | undefined;
  /** Answers `sampling/createMessage` requests; declares the sampling capability. */
  readonly sampling?: SamplingHandler | undefined;
  /** Answers `roots/list` requests; declares the roots capability. */
  readonly roots?: RootsHandler | undefined;
}

/**
 * Answers every entry of `requests` concurrently and resolves with one `InputResponses` map holding all of them,
 * so a caller can send them in a single retry or `tasks/update`. Each handler gets an {@link InputContext} built
 * from `origin`. Values are plain results with no `resultType`
 *. Rejects with `signal.reason` if `signal` aborts, and with `InputHandlerError` when a request has no
 * handler, a sampling or roots handler fails, or a handler returns something that is not a valid result.
 */
export async function resolveInputRequests(
  requests: Readonly<Record<string, InputRequest>>,
  handlers: InputHandlers,
  signal: AbortSignal,
  origin: InputOrigin,
): Promise<InputResponses> {
  const toolName =
    origin.method === 'tools/call' && typeof origin.params?.name === 'string' ? origin.params.name : undefined;
  const entries = await Promise.all(
    Object.entries(requests).map(async ([key, request]) => {
      const context: InputContext = {
        key,
        signal,
        method: origin.method,
        toolName,
        params: origin.params,
        taskId: origin.taskId,
      };
      return [key, await answer(key, request, handlers, context)] as const;
    }),
  );
  signal.throwIfAborted();
  return Object.fromEntries(entries);
}

async function answer(
  key: string,
  request: InputRequest,
  handlers: InputHandlers,
  context: InputContext,
): Promise<InputResponse> {
  switch (request.method) {
    case 'elicitation/create': {
      const handler = handlers.elicitation;
      if (!handler) throw noHandler(key, request.method);
      let result: unknown;
      try {
        result = await handler(request.params, context);
      } catch {
        context.signal.throwIfAborted();
        // The user never made an explicit choice: "cancel" tells the server so instead of leaving it waiting.
        return { action: 'cancel' };
      }
      return checked(key, request.method, ElicitResultSchema, result);
    }
    case 'sampling/createMessage': {
      const handler = handlers.sampling;
      if (!handler) throw noHandler(key, request.method);
      return checked(
        key,
        request.method,
        CreateMessageResultSchema,
        await call(key, request.method, () => handler(request.params, context), context),
      );
    }
    case 'roots/list': {
      const handler = handlers.roots;
      if (!handler) throw noHandler(key, request.method);
      return checked(
        key,
        request.method,
        ListRootsResultSchema,
        await call(key, request.method, () => handler(request.params, context), context),
      );
    }
  }
}

async function call(key: string, method: string, run: () => unknown, context: InputContext): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    context.signal.throwIfAborted();
    throw new InputHandlerError(key, method, 'the handler failed', { cause: error });
  }
}

function checked<T extends object>(key: string, method: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new InputHandlerError(key, method, 'the handler returned an invalid result', { cause: parsed.error });
  }
  // An input response is a bare client result: it never carries a resultType.
  const { resultType: _dropped, ...rest } = parsed.data as T & { resultType?: unknown };
  return rest as T;
}

function noHandler(key: string, method: string): InputHandlerError {
  return new InputHandlerError(key, method, 'no handler is registered for this method (capability not declared)');
}
