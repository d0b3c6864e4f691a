/**
 * Answers input requests (MRTR `inputRequests` and task `inputRequests` alike) with the application's handlers.
 * Each entry is handled exactly as the equivalent standalone request would be (C12): the same handler, the same
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

/** What every input handler is told besides the request params. */
export interface InputContext {
  /** The server-assigned key of this input request (unique within the request, or the task's lifetime). */
  readonly key: string;
  /** Aborted when the call this input belongs to is aborted. */
  readonly signal: AbortSignal;
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
  readonly elicitation?: ElicitationHandler | undefined;
  readonly sampling?: SamplingHandler | undefined;
  readonly roots?: RootsHandler | undefined;
}

/**
 * Answers every entry of `requests` concurrently and resolves with one `InputResponses` map holding all of them,
 * so a caller can send them in a single retry or `tasks/update`. Values are plain results with no `resultType`
 * (C14). Rejects with `signal.reason` if `signal` aborts, and with `InputHandlerError` when a request has no
 * handler, a sampling or roots handler fails, or a handler returns something that is not a valid result.
 */
export async function resolveInputRequests(
  requests: Readonly<Record<string, InputRequest>>,
  handlers: InputHandlers,
  signal: AbortSignal,
): Promise<InputResponses> {
  const entries = await Promise.all(
    Object.entries(requests).map(
      async ([key, request]) => [key, await answer(key, request, handlers, { key, signal })] as const,
    ),
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
  // An input response is a bare client result: it never carries a resultType (C14).
  const { resultType: _dropped, ...rest } = parsed.data as T & { resultType?: unknown };
  return rest as T;
}

function noHandler(key: string, method: string): InputHandlerError {
  return new InputHandlerError(key, method, 'no handler is registered for this method (capability not declared)');
}
