import type { McpServer } from '@mcp-tasks/server';
import { PNG_1X1_BASE64 } from './fixtureData.js';

/** Registers the resources and the resource template of the fixture (CONFORMANCE.md 6.6). */
export function registerConformanceResources(server: McpServer): void {
  server
    .resource({
      uri: 'test://static-text',
      name: 'static-text',
      description: 'A static text resource',
      mimeType: 'text/plain',
      read: (uri) => ({
        contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
      }),
    })
    .resource({
      uri: 'test://static-binary',
      name: 'static-binary',
      description: 'A static binary resource (a 1x1 PNG)',
      mimeType: 'image/png',
      read: (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: PNG_1X1_BASE64 }] }),
    })
    .resourceTemplate({
      uriTemplate: 'test://template/{id}/data',
      name: 'template-data',
      description: 'A JSON document per id',
      mimeType: 'application/json',
      complete: { id: (value) => ['1', '2', '3', '123'].filter((id) => id.startsWith(value)) },
      read: (uri, { id }) => ({
        contents: [
          {
            uri,
            mimeType: 'application/json',
            text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
          },
        ],
      }),
    });
}
