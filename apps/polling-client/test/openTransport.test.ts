import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenedTransport, openTransport } from '../src/openTransport.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/askingStdioServer.mjs');

describe('openTransport (stdio)', () => {
  let transport: OpenedTransport | undefined;
  afterEach(async () => {
    await transport?.close();
    transport = undefined;
  });

  it('hands server-initiated requests to the peer handler (2025-era sampling, elicitation, roots)', async () => {
    transport = await openTransport(
      { kind: 'stdio', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(FIXTURE)}` },
      { warn: () => undefined },
    );
    const seen: string[] = [];
    transport.setPeerHandler?.({
      onRequest: async (request) => {
        seen.push(request.method);
        return { jsonrpc: '2.0', id: request.id, result: { role: 'assistant', answered: true } };
      },
      onNotification: () => undefined,
    });
    const response = await transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });
    expect(seen).toEqual(['sampling/createMessage']);
    expect(response).toMatchObject({ id: 1, result: { peerAnswer: { id: 0, result: { answered: true } } } });
  });
});
