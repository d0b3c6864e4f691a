import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  type InputRequest,
  type InputResponse,
  ListRootsResultSchema,
} from '@mcp-tasks/protocol';
import type { z } from 'zod';
import { formatZodError, invalidParams } from './errors.js';
import { formContentProblem } from './formContent.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';

/** The outcome of validating one answer. */
export type ParsedAnswer = { success: true; data: InputResponse } | { success: false; error: z.ZodError };

/** The result schema an answer to each input-request method must match. */
const ANSWER_SCHEMAS: Readonly<Record<string, { safeParse(value: unknown): ParsedAnswer }>> = {
  'elicitation/create': ElicitResultSchema,
  'sampling/createMessage': CreateMessageResultSchema,
  'roots/list': ListRootsResultSchema,
};

/**
 * Validates one answer against the result schema of the input-request `method` it answers (`elicitation/create`,
 * `sampling/createMessage` or `roots/list`). Throws for any other method: only those three are ever issued.
 */
export function parseInputAnswer(method: string, value: unknown): ParsedAnswer {
  const schema = ANSWER_SCHEMAS[method];
  if (schema === undefined) throw new Error(`Unsupported input request method ${method}`);
  return schema.safeParse(value);
}

/**
 * Checks the answers to input requests the server actually issued: `asked` maps each issued key to its request (or
 * just its method, when the request itself is not known), and only those keys are checked and returned; other keys
 * are left out silently (SEP-2322: "ignore what it does not recognize"). An accepted form elicitation must also
 * match the `requestedSchema` it answers, when the request is known. All-or-nothing: the first malformed answer
 * throws `-32602` naming its key, so a caller that writes only after this returns never delivers part of a bad
 * batch, and the question stays open for a correct answer.
 */
export function checkInputAnswers(
  responses: JsonObject,
  asked: Readonly<Record<string, string | InputRequest>>,
): Record<string, InputResponse> {
  const answers: Record<string, InputResponse> = {};
  for (const [key, value] of Object.entries(responses)) {
    if (!Object.hasOwn(asked, key)) continue;
    if (!isJsonObject(value)) throw invalidParams(`Invalid params: inputResponses["${key}"] must be an object`);
    const request = asked[key] ?? '';
    const method = typeof request === 'string' ? request : request.method;
    // Only the three input-request methods are ever issued (toInputRequiredResult and ctx.elicit/sample/listRoots).
    const parsed = parseInputAnswer(method, value);
    if (!parsed.success) {
      throw invalidParams(
        `Invalid params: inputResponses["${key}"] is not a valid ${method} result: ${formatZodError(parsed.error)}`,
      );
    }
    const problem = typeof request === 'string' ? undefined : formProblem(request, parsed.data);
    if (problem !== undefined) {
      throw invalidParams(`Invalid params: inputResponses["${key}"] does not match the requested form: ${problem}`);
    }
    answers[key] = parsed.data;
  }
  return answers;
}

/** Why an accepted answer to a form elicitation does not match its `requestedSchema`; undefined otherwise. */
function formProblem(request: InputRequest, answer: InputResponse): string | undefined {
  if (request.method !== 'elicitation/create' || !isJsonObject(answer) || answer.action !== 'accept') return undefined;
  const params = request.params as { mode?: unknown; requestedSchema?: unknown } | undefined;
  if (params === undefined || (params.mode !== undefined && params.mode !== 'form')) return undefined;
  return formContentProblem(params.requestedSchema, answer.content);
}
