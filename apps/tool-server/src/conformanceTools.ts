import type { EmbeddedResource, ImageContent, TextContent } from '@mcp-tasks/protocol';
import { delay } from '@mcp-tasks/protocol';
import { jsonSchema, type McpServer } from '@mcp-tasks/server';
import { z } from 'zod';
import { JSON_SCHEMA_2020_12_FIXTURE, PNG_1X1_BASE64, silentWavBase64 } from './fixtureData.js';
import { ASK_CAPITAL } from './inputRequests.js';

const text = (value: string): TextContent => ({ type: 'text', text: value });
const image: ImageContent = { type: 'image', data: PNG_1X1_BASE64, mimeType: 'image/png' };
const embedded: EmbeddedResource = {
  type: 'resource',
  resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
};

/**
 * Registers the plain tools of the conformance fixture (CONFORMANCE.md 6.3, rows 1–11), in `tools/list` order.
 * Row 1 must stay first: http-header-validation calls the first listed tool with `{}`.
 */
export function registerBasicConformanceTools(server: McpServer): void {
  server
    .tool({
      name: 'test_simple_text',
      description: 'Returns a simple text response',
      handler: () => ({ content: [text('This is a simple text response for testing.')] }),
    })
    .tool({
      name: 'test_image_content',
      description: 'Returns a 1x1 PNG image',
      handler: () => ({ content: [image] }),
    })
    .tool({
      name: 'test_audio_content',
      description: 'Returns a short silent WAV clip',
      handler: () => ({ content: [{ type: 'audio', data: silentWavBase64(), mimeType: 'audio/wav' }] }),
    })
    .tool({
      name: 'test_embedded_resource',
      description: 'Returns an embedded text resource',
      handler: () => ({ content: [embedded] }),
    })
    .tool({
      name: 'test_multiple_content_types',
      description: 'Returns text, image and resource content together',
      handler: () => ({ content: [text('Multiple content types test:'), image, embedded] }),
    })
    .tool({
      name: 'test_error_handling',
      description: 'Always fails with a tool error (isError), not a protocol error',
      handler: () => ({ content: [text('This tool intentionally returns an error for testing')], isError: true }),
    })
    .tool({
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100 when the request carries a progress token',
      handler: async (_args, ctx) => {
        // ~50 ms apart so the client sees a stream rather than one burst (CONFORMANCE.md 6.3 row 7).
        ctx.progress(0, 100, 'starting');
        await delay(50, ctx.signal);
        ctx.progress(50, 100, 'halfway');
        await delay(50, ctx.signal);
        ctx.progress(100, 100, 'done');
        return { content: [text('Progress test completed')] };
      },
    })
    .tool({
      name: 'test_x_mcp_header',
      description: 'Echoes the region argument, which clients mirror into the Mcp-Param-Region header',
      inputSchema: z.object({
        region: z.string().meta({ 'x-mcp-header': 'Region' }),
        level: z.number().int().optional(),
      }),
      handler: ({ region, level }) => ({
        content: [text(level === undefined ? `region=${region}` : `region=${region} level=${level}`)],
      }),
    })
    .tool({
      name: 'test_missing_capability',
      description: 'Asks the client model a question; needs the sampling capability',
      // Through MRTR: the runtime refuses an undeclared capability with -32021 {requiredCapabilities:{sampling:{}}}.
      handler: (_args, ctx) => {
        const answer = ctx.inputResponses.capital_question;
        if (answer === undefined) return ctx.inputRequired({ inputRequests: { capital_question: ASK_CAPITAL } });
        return { content: [text('Sampling capability confirmed')] };
      },
    })
    .tool({
      name: 'test_streaming_elicitation',
      description: 'Answers with a plain result; never sends a server-to-client request on the response stream',
      handler: () => ({ content: [text('No server-to-client requests on a stateless stream')] }),
    })
    .tool({
      name: 'test_logging_tool',
      description: 'Logs three messages, delivered only when the request sets a log level',
      handler: (_args, ctx) => {
        ctx.log('info', 'Tool execution started', 'test_logging_tool');
        ctx.log('info', 'Tool processing data', 'test_logging_tool');
        ctx.log('info', 'Tool execution completed', 'test_logging_tool');
        return { content: [text('Logging test completed')] };
      },
    });
}

/** Registers `json_schema_2020_12_tool` (row 20), whose input schema is served byte for byte. */
export function registerJsonSchemaTool(server: McpServer): void {
  server.tool({
    name: 'json_schema_2020_12_tool',
    description: 'Has a JSON Schema 2020-12 input schema ($defs, $anchor, allOf/anyOf, if/then/else)',
    inputSchema: jsonSchema(JSON_SCHEMA_2020_12_FIXTURE),
    handler: (args) => ({ content: [text(`Received ${JSON.stringify(args)}`)] }),
  });
}
