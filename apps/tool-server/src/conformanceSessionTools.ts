import type { ElicitRequestParams, TextContent } from '@mcp-tasks/protocol';
import { delay } from '@mcp-tasks/protocol';
import type { McpServer } from '@mcp-tasks/server';
import { z } from 'zod';

const text = (value: string): TextContent => ({ type: 'text', text: value });

/** The form schema of a form-mode `elicitation/create`. */
type FormSchema = Extract<ElicitRequestParams, { requestedSchema: unknown }>['requestedSchema'];

/** The form of `test_elicitation_sep1034_defaults`: every primitive type with a default (SEP-1034). */
const DEFAULTS_FORM: FormSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Your name', default: 'John Doe' },
    age: { type: 'integer', description: 'Your age', default: 30 },
    score: { type: 'number', description: 'Your score', default: 95.5 },
    status: { type: 'string', description: 'Your status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verified?', default: true },
  },
};

/** The form of `test_elicitation_sep1330_enums`: the five enum shapes of SEP-1330. */
const ENUMS_FORM: FormSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

/** A tool that asks for `form` and describes the answer, as the conformance fixture expects. */
function elicitationTool(server: McpServer, name: string, description: string, form: FormSchema): void {
  server.tool({
    name,
    description,
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({ message: `Please review the fields of ${name}`, requestedSchema: form });
      return { content: [text(`Elicitation completed: ${JSON.stringify(answer)}`)] };
    },
  });
}

/**
 * Registers the tools of the conformance fixture that talk back to the client while they run (the 2025-era active
 * suite): logging, sampling and elicitation. The same code serves both eras: in a 2025 session `ctx.sample` and
 * `ctx.elicit` send real requests to the client; on the 2026 wire they become an `input_required` round.
 */
export function registerSessionConformanceTools(server: McpServer): void {
  server
    .tool({
      name: 'test_tool_with_logging',
      description: 'Logs three messages about 50 ms apart while it runs',
      handler: async (_args, ctx) => {
        ctx.log('info', 'Tool execution started', 'test_tool_with_logging');
        await delay(50, ctx.signal);
        ctx.log('info', 'Tool processing data', 'test_tool_with_logging');
        await delay(50, ctx.signal);
        ctx.log('info', 'Tool execution completed', 'test_tool_with_logging');
        return { content: [text('Logging tool completed')] };
      },
    })
    .tool({
      name: 'test_sampling',
      description: "Asks the client's model to answer a prompt (sampling/createMessage)",
      inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the model') }),
      handler: async ({ prompt }, ctx) => {
        const reply = await ctx.sample({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 100,
        });
        const content = Array.isArray(reply.content) ? reply.content[0] : reply.content;
        const said = content !== undefined && content.type === 'text' ? content.text : JSON.stringify(content);
        return { content: [text(`LLM response: ${said}`)] };
      },
    })
    .tool({
      name: 'test_elicitation',
      description: 'Asks the user for a username and an email address (elicitation/create)',
      inputSchema: z.object({ message: z.string().describe('The message to show the user') }),
      handler: async ({ message }, ctx) => {
        const answer = await ctx.elicit({
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        });
        return { content: [text(`User response: ${JSON.stringify(answer)}`)] };
      },
    });
  elicitationTool(
    server,
    'test_elicitation_sep1034_defaults',
    'Asks for a form whose every field has a default (SEP-1034)',
    DEFAULTS_FORM,
  );
  elicitationTool(
    server,
    'test_elicitation_sep1330_enums',
    'Asks for a form with the five enum shapes of SEP-1330',
    ENUMS_FORM,
  );
}
