import type { McpServer } from '@mcp-tasks/server';
import { PNG_1X1_BASE64 } from './fixtureData.js';
import { elicitForm } from './inputRequests.js';

const user = (content: object) => ({ role: 'user', content });
const text = (value: string) => ({ type: 'text', text: value });

/** Registers the prompts of the fixture (CONFORMANCE.md 6.6), in `prompts/list` order. */
export function registerConformancePrompts(server: McpServer): void {
  server
    .prompt({
      name: 'test_simple_prompt',
      description: 'A simple prompt without arguments',
      handler: () => ({ messages: [user(text('This is a simple prompt for testing.'))] }),
    })
    .prompt({
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two required arguments',
      arguments: [
        {
          name: 'arg1',
          description: 'First test argument',
          required: true,
          complete: (value) => ['paris', 'park', 'party'].filter((v) => v.startsWith(value)),
        },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
      handler: ({ arg1, arg2 }) => ({
        messages: [user(text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`))],
      }),
    })
    .prompt({
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt that embeds the resource it is given',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
      handler: ({ resourceUri }) => ({
        messages: [
          user({
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          }),
          user(text('Please process the embedded resource above.')),
        ],
      }),
    })
    .prompt({
      name: 'test_prompt_with_image',
      description: 'A prompt with image content',
      handler: () => ({
        messages: [
          user({ type: 'image', data: PNG_1X1_BASE64, mimeType: 'image/png' }),
          user(text('Please analyze the image above.')),
        ],
      }),
    })
    .prompt({
      name: 'test_input_required_result_prompt',
      description: 'Asks for context through an elicitation (key user_context) before rendering',
      handler: (_args, ctx) => {
        const answer = ctx.inputResponses.user_context;
        if (answer === undefined) {
          return ctx.inputRequired({
            inputRequests: {
              user_context: elicitForm('What context should the prompt use?', { context: { type: 'string' } }, [
                'context',
              ]),
            },
          });
        }
        const content = answer.content as { context?: unknown } | undefined;
        const context = typeof content?.context === 'string' ? content.context : '(none)';
        return { messages: [user(text(`Prompt rendered with context: ${context}`))] };
      },
    });
}
