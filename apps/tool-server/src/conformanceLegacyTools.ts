import type { ElicitRequestFormParams } from '@mcp-tasks/protocol';
import type { McpServer, ToolDefinition, ToolResult } from '@mcp-tasks/server';
import { z } from 'zod';
import { elicitForm, sampledText } from './inputRequests.js';
import { sleep } from './sleep.js';

const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] });

/** The form of `test_elicitation_sep1034_defaults`: a default for every primitive type. */
const DEFAULTS_FORM = elicitForm(
  'Please review your details (every field has a default)',
  {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
  },
  [],
);

/** The form of `test_elicitation_sep1330_enums`: the five enum shapes. */
const ENUMS_FORM = elicitForm(
  'Please pick some options',
  {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
      ],
    },
    legacyEnum: { type: 'string', enum: ['opt1', 'opt2'], enumNames: ['Option One', 'Option Two'] },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
        ],
      },
    },
  },
  [],
);

/** A tool that elicits `form` and reports the answer. */
function formTool(name: string, form: ElicitRequestFormParams, description: string): ToolDefinition {
  return {
    name,
    description,
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit(form);
      return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
    },
  };
}

/**
 * Registers the tools the conformance suite calls on the 2025-11-25 wire (tools-call-with-logging,
 * tools-call-sampling, tools-call-elicitation, elicitation-sep1034-defaults, elicitation-sep1330-enums). They use
 * `ctx.log`, `ctx.sample` and `ctx.elicit` like any tool: in a 2025-era session the questions are real requests to
 * the client, on the 2026 wire they are MRTR rounds.
 */
export function registerLegacyConformanceTools(server: McpServer): void {
  server
    .tool({
      name: 'test_tool_with_logging',
      description: 'Logs three info messages about 50 ms apart, delivered by the session or request log level',
      handler: async (_args, ctx) => {
        ctx.log('info', 'Tool execution started', 'test_tool_with_logging');
        await sleep(50, ctx.signal);
        ctx.log('info', 'Tool processing data', 'test_tool_with_logging');
        await sleep(50, ctx.signal);
        ctx.log('info', 'Tool execution completed', 'test_tool_with_logging');
        return text('Logging test completed');
      },
    })
    .tool({
      name: 'test_sampling',
      description: "Asks the client's model the given prompt (sampling/createMessage)",
      inputSchema: z.object({ prompt: z.string() }),
      handler: async ({ prompt }, ctx) => {
        const answer = await ctx.sample({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 100,
        });
        return text(`LLM response: ${sampledText(answer) ?? '(no text)'}`);
      },
    })
    .tool({
      name: 'test_elicitation',
      description: 'Asks the user for a username and email (elicitation/create) with the given message',
      inputSchema: z.object({ message: z.string() }),
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
        return text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
      },
    })
    .tool(
      formTool(
        'test_elicitation_sep1034_defaults',
        DEFAULTS_FORM.params,
        'Elicits a form whose string, integer, number, enum and boolean fields all have defaults',
      ),
    )
    .tool(
      formTool(
        'test_elicitation_sep1330_enums',
        ENUMS_FORM.params,
        'Elicits a form with the five enum shapes (plain, titled, enumNames, multi, titled multi)',
      ),
    );
}
