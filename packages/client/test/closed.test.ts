import { TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/index.js';
import { ack, FakeTransport } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };

describe('McpClient.closed', () => {
  it('resolves as a remote close when the server goes away, after which calls fail with closed', async () => {
    const transport = new FakeTransport(() => ack);
    const client = new McpClient({ transport, clientInfo });
    await client.request('ping');
    transport.drop();
    const closed = await client.closed;
    expect(closed.initiator).toBe('remote');
    expect(closed.error).toBeInstanceOf(TransportError);
    await expect(client.request('ping')).rejects.toMatchObject({ name: 'TransportError', code: 'closed' });
  });

  it('resolves as a local close after close()', async () => {
    const client = new McpClient({ transport: new FakeTransport(() => ack), clientInfo });
    await client.close();
    expect(await client.closed).toEqual({ initiator: 'local' });
  });
});
