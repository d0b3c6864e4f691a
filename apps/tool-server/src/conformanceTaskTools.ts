import { delay, ErrorCode, ProtocolError } from '@mcp-tasks/protocol';
import type { McpServer, ToolResult } from '@mcp-tasks/server';
import { z } from 'zod';
import { ASK_NAME, acceptedContent } from './inputRequests.js';

const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] });

/**
 * Registers the task tools of the fixture (CONFORMANCE.md 6.3 rows 21–27), in order. Task support decides the
 * path: `forbidden` always answers synchronously, `optional` becomes a task only when this request declares the
 * Tasks extension, `required` answers -32021 without it.
 */
export function registerTaskConformanceTools(server: McpServer): void {
  server
    .tool({
      name: 'greet',
      description: 'Greets someone; always synchronous, even for a task-capable client',
      inputSchema: z.object({ name: z.string() }),
      taskSupport: 'forbidden',
      handler: ({ name }) => text(`Hello, ${name}!`),
    })
    .tool({
      name: 'slow_compute',
      description: 'Waits the given number of seconds (cancellable), as a task when the client supports tasks',
      inputSchema: z.object({ seconds: z.number().min(0).max(3600), label: z.string().optional() }),
      taskSupport: 'optional',
      handler: async ({ seconds, label }, ctx) => {
        await ctx.setStatus(`computing for ${seconds}s`);
        await delay(seconds * 1000, ctx.signal);
        return text(`Computed ${label ?? 'result'} after ${seconds}s`);
      },
    })
    .tool({
      name: 'failing_job',
      description: 'Runs only as a task; after about a second it completes with a tool error (isError)',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await delay(1000, ctx.signal);
        // A tool-level failure: the task is `completed` with isError, not `failed` (failed is for JSON-RPC errors).
        return { content: [{ type: 'text', text: 'The job failed: input data is invalid' }], isError: true };
      },
    })
    .tool({
      name: 'protocol_error_job',
      description: 'Ends with a JSON-RPC error, so its task ends failed',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        await delay(200, ctx.signal);
        throw new ProtocolError(ErrorCode.InternalError, 'The backend rejected the job', { retryable: false });
      },
    })
    .tool({
      name: 'confirm_delete',
      description: 'Asks for confirmation inside the task before deleting a file',
      inputSchema: z.object({ filename: z.string() }),
      taskSupport: 'optional',
      handler: async ({ filename }, ctx) => {
        const answer = await ctx.elicit({
          message: `Delete ${filename}?`,
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
        });
        return acceptedContent(answer)?.confirm === true ? text(`deleted ${filename}`) : text(`kept ${filename}`);
      },
    })
    .tool({
      name: 'multi_input',
      description: 'Asks two questions at once inside the task; completes when both are answered',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        const [first, second] = await Promise.all([
          ctx.elicit({ message: 'First question', requestedSchema: ASK_NAME.params.requestedSchema }),
          ctx.elicit({ message: 'Second question', requestedSchema: ASK_NAME.params.requestedSchema }),
        ]);
        return text(`Received ${first.action} and ${second.action}`);
      },
    })
    .tool({
      name: 'test_tool_with_task',
      description: 'Asks for a name synchronously (MRTR), then runs as a task that greets it',
      taskSupport: 'required',
      // The MRTR round ends before any task exists (S10); the runtime verifies a returned requestState.
      collectInput: (_args, ctx) =>
        ctx.inputResponses.user_name === undefined
          ? ctx.inputRequired({ inputRequests: { user_name: ASK_NAME }, state: { tool: 'test_tool_with_task' } })
          : undefined,
      handler: async (_args, ctx) => {
        const name = acceptedContent(ctx.inputResponses.user_name)?.name;
        await delay(100, ctx.signal);
        return text(`Hello, ${typeof name === 'string' ? name : 'anonymous'}! Your task is done.`);
      },
    });
}

/**
 * Registers `test_trigger_tool_change` and `test_trigger_prompt_change`: each toggles a dynamic tool or prompt, a
 * real list mutation that open `subscriptions/listen` streams hear as `list_changed`.
 */
export function registerTriggerTools(server: McpServer): void {
  let dynamicTool = false;
  let dynamicPrompt = false;
  server
    .tool({
      name: 'test_trigger_tool_change',
      description: 'Adds or removes the tool test_dynamic_tool (notifies tools list_changed)',
      handler: () => {
        dynamicTool = !dynamicTool;
        if (!dynamicTool) server.removeTool('test_dynamic_tool');
        else {
          server.tool({
            name: 'test_dynamic_tool',
            description: 'Exists between two calls of test_trigger_tool_change',
            handler: () => text('dynamic'),
          });
        }
        return text(dynamicTool ? 'Added test_dynamic_tool' : 'Removed test_dynamic_tool');
      },
    })
    .tool({
      name: 'test_trigger_prompt_change',
      description: 'Adds or removes the prompt test_dynamic_prompt (notifies prompts list_changed)',
      handler: () => {
        dynamicPrompt = !dynamicPrompt;
        if (!dynamicPrompt) server.removePrompt('test_dynamic_prompt');
        else {
          server.prompt({
            name: 'test_dynamic_prompt',
            description: 'Exists between two calls of test_trigger_prompt_change',
            handler: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'dynamic' } }] }),
          });
        }
        return text(dynamicPrompt ? 'Added test_dynamic_prompt' : 'Removed test_dynamic_prompt');
      },
    });
}
