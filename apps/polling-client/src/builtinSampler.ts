/**
 * The sampling responder used when no model is attached (this CLI has none): it replies with a clearly labelled
 * echo of the last user message, or with the `"$sampling"` text from the answers file.
 */
import type { CreateMessageRequest, CreateMessageResult } from '@mcp-tasks/protocol';

/** The model name the built-in responder reports, so a server (and a reader) can tell it is not a real model. */
export const BUILTIN_SAMPLER_MODEL = 'polling-client-builtin-echo';

/** Builds the reply to one `sampling/createMessage`. `canned` replaces the echo when given. */
export function builtinSample(params: CreateMessageRequest['params'], canned?: string): CreateMessageResult {
  if (canned !== undefined)
    return {
      role: 'assistant',
      content: { type: 'text', text: canned },
      model: 'polling-client-answers-file',
      stopReason: 'endTurn',
    };
  return {
    role: 'assistant',
    content: { type: 'text', text: `[built-in responder, no model attached] You said: ${lastUserText(params)}` },
    model: BUILTIN_SAMPLER_MODEL,
    stopReason: 'endTurn',
  };
}

function lastUserText(params: CreateMessageRequest['params']): string {
  for (const message of [...params.messages].reverse()) {
    if (message.role !== 'user') continue;
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const text = blocks
      .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : `[${block.type}]`))
      .join(' ');
    if (text !== '') return text;
  }
  return '(no user message)';
}
