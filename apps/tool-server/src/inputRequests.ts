import type {
  CreateMessageRequest,
  ElicitRequest,
  ElicitRequestFormParams,
  InputRequest,
  PrimitiveSchemaDefinition,
} from '@mcp-tasks/protocol';

/** Builds a form-mode `elicitation/create` input request. */
export function elicitForm(
  message: string,
  properties: Record<string, PrimitiveSchemaDefinition>,
  required: string[],
): ElicitRequest & { params: ElicitRequestFormParams } {
  return {
    method: 'elicitation/create',
    params: { message, requestedSchema: { type: 'object', properties, required } },
  };
}

/** Builds a one-message `sampling/createMessage` input request. */
export function sampleText(text: string, maxTokens: number): CreateMessageRequest {
  return {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
  };
}

/** The fixture's name question (key `user_name`, hard-coded by the harness). */
export const ASK_NAME = elicitForm('What is your name?', { name: { type: 'string' } }, ['name']);
/** The fixture's sampling question (key `capital_question`). */
export const ASK_CAPITAL = sampleText('What is the capital of France?', 100);
/** `roots/list` (key `client_roots`). */
export const LIST_ROOTS: InputRequest = { method: 'roots/list', params: {} };

/** The text of a `CreateMessageResult` (single content block or an array of blocks), or undefined. */
export function sampledText(result: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const content = result?.content;
  const blocks = Array.isArray(content) ? content : [content];
  const texts = blocks
    .filter((b): b is { type: 'text'; text: string } => isTextBlock(b))
    .map((b) => b.text)
    .join('\n');
  return texts === '' ? undefined : texts;
}

function isTextBlock(value: unknown): value is { type: 'text'; text: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'text' &&
    typeof (value as { text?: unknown }).text === 'string'
  );
}

/** The `content` of an accepted `ElicitResult`, or undefined when the user declined, cancelled or sent garbage. */
export function acceptedContent(
  result: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> | undefined {
  if (result?.action !== 'accept') return undefined;
  const content = result.content;
  return typeof content === 'object' && content !== null && !Array.isArray(content)
    ? (content as Record<string, unknown>)
    : undefined;
}
