import { META, TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { InvalidResponseError, McpClient, type McpClientOptions, UnsupportedInEraError } from '../../src/index.js';
import { FakeTransport, textResult } from '../fakeTransport.js';
import {
  type LegacyServerOptions,
  legacyResponder,
  legacyTransport,
  methods,
  type ProbeAnswer,
} from './legacyServer.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };

function setup(server: LegacyServerOptions = {}, options: Partial<McpClientOptions> = {}) {
  const transport = legacyTransport({ handle: () => ({ tools: [] }), ...server });
  return { transport, client: new McpClient({ transport, clientInfo, ...options }) };
}

describe('choosing the era (auto)', () => {
  it.each<ProbeAnswer>(['method_not_found', 'empty_result', 'http_404', 'http_400', 'http_405'])(
    'L-C1, L-C4: discover answered %s → initialize, then initialized',
    async (probe) => {
      const { transport, client } = setup({ probe });
      await expect(client.listTools()).resolves.toMatchObject({ tools: [] });
      expect(methods(transport)).toEqual(['server/discover', 'initialize', 'tools/list']);
      expect(transport.sentNotifications.map((n) => n.method)).toEqual(['notifications/initialized']);
      expect(client.protocolVersion).toBe('2025-11-25');
    },
  );

  it('L-C5, L-C6, L-C22: initialize offers 2025-11-25 with clientInfo and what the handlers implement', async () => {
    const { transport, client } = setup(
      {},
      {
        handlers: { elicitation: () => ({ action: 'decline' }), sampling: vi.fn(), roots: () => ({ roots: [] }) },
        capabilities: { elicitation: { url: {} } },
      },
    );
    await client.connect();
    expect(transport.calls('initialize')[0]!.params).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: {
        elicitation: { form: {}, url: {} },
        sampling: {},
        roots: {},
        tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} }, sampling: { createMessage: {} } } },
      },
      clientInfo,
    });
  });

  it('L-C22, L-T25: no tasks capability with tasks: false, without elicitation or sampling, or before 2025-11-25', async () => {
    const handlers = { elicitation: () => ({ action: 'decline' as const }) };
    const off = setup({}, { handlers, tasks: false });
    const rootsOnly = setup({}, { handlers: { roots: () => ({ roots: [] }) } });
    const older = setup({}, { handlers, versionNegotiation: { pin: '2025-06-18' } });
    for (const { transport, client } of [off, rootsOnly, older]) {
      await client.connect();
      expect(transport.calls('initialize')[0]!.params?.capabilities).not.toHaveProperty('tasks');
    }
  });

  it('L-C8: requests after the handshake carry no 2026-07-28 envelope; a progress token is fine', async () => {
    const { transport, client } = setup({ handle: () => textResult('ok') });
    await client.callTool('t', { a: 1 }, { onProgress: () => undefined });
    const params = transport.calls('tools/call')[0]!.params!;
    expect(params).toEqual({ name: 't', arguments: { a: 1 }, _meta: { [META.progressToken]: 'progress-1' } });
  });

  it('L-C17: a 2025 result without resultType is the final result', async () => {
    const { client } = setup({ handle: () => ({ content: [{ type: 'text', text: 'legacy' }] }) });
    await expect(client.callTool('t')).resolves.toMatchObject({ content: [{ text: 'legacy' }] });
  });

  it('L-C3: the era is negotiated once; concurrent first calls share the probe and the handshake', async () => {
    const { transport, client } = setup();
    await Promise.all([client.listTools(), client.listTools('c'), client.listPrompts().catch(() => undefined)]);
    await client.listTools('d');
    expect(transport.calls('server/discover')).toHaveLength(1);
    expect(transport.calls('initialize')).toHaveLength(1);
  });

  it('L-C2: a server that never answers the probe is 2025-era after probeTimeoutMs; the probe is abandoned', async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const silent = new FakeTransport(
        (req, ctx) =>
          req.method === 'server/discover' ? new Promise<never>(() => undefined) : legacyResponder()(req, ctx),
        { probe: 'responder' },
      );
      const client = new McpClient({ transport: silent, clientInfo, probeTimeoutMs: 2000 });
      const connected = client.connect();
      await vi.advanceTimersByTimeAsync(1999);
      expect(silent.calls('initialize')).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      await expect(connected).resolves.toMatchObject({ era: 'legacy' });
      expect(silent.sentNotifications.map((n) => n.method)).toEqual([
        'notifications/cancelled',
        'notifications/initialized',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('connect() reports the era, the version and the InitializeResult', async () => {
    const { client } = setup({ capabilities: { tools: {}, logging: {} } });
    await expect(client.connect()).resolves.toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      initialize: { serverInfo: { name: 'legacy' }, capabilities: { logging: {} } },
    });
  });

  it.each([-32020, -32021])('L-C1: discover answered %i (a 2026-07-28 error) → modern, no initialize', async (code) => {
    const transport = new FakeTransport(
      (req) => (req.method === 'server/discover' ? { error: { code, message: 'modern' } } : { tools: [] }),
      { probe: 'responder' },
    );
    const client = new McpClient({ transport, clientInfo });
    await expect(client.connect()).resolves.toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    await client.listTools();
    expect(methods(transport)).toEqual(['server/discover', 'tools/list']);
    expect(transport.calls('tools/list')[0]!.params?._meta).toHaveProperty(META.protocolVersion, '2026-07-28');
  });

  it('auto against a modern server: one discover, then the 2026-07-28 envelope as before', async () => {
    const transport = new FakeTransport(() => ({ resultType: 'complete', tools: [] }));
    const client = new McpClient({ transport, clientInfo });
    await client.listTools();
    expect(transport.probes.map((p) => p.method)).toEqual(['server/discover']);
    expect(methods(transport)).toEqual(['tools/list']);
    await expect(client.connect()).resolves.toMatchObject({
      era: 'modern',
      discover: { supportedVersions: ['2026-07-28'] },
    });
  });

  it('a transport failure during the probe is not an era: it rejects, and the next call probes again', async () => {
    let fail = true;
    const transport = new FakeTransport(
      (req) => {
        if (req.method === 'server/discover' && fail) {
          fail = false;
          throw new TransportError('send_failed', 'connection refused');
        }
        return req.method === 'server/discover'
          ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {}, serverInfo: clientInfo }
          : { resultType: 'complete', tools: [] };
      },
      { probe: 'responder' },
    );
    const client = new McpClient({ transport, clientInfo });
    await expect(client.listTools()).rejects.toThrow('connection refused');
    await expect(client.listTools()).resolves.toMatchObject({ tools: [] });
    expect(transport.calls('server/discover')).toHaveLength(2);
  });
});

describe('pinned versions', () => {
  it('a client pinned to 2026-07-28 never probes and never sends initialize', async () => {
    const transport = new FakeTransport(() => ({ resultType: 'complete', tools: [] }), { probe: 'responder' });
    const client = new McpClient({ transport, clientInfo, versionNegotiation: { pin: '2026-07-28' } });
    await client.listTools();
    await client.callTool('t').catch(() => undefined);
    expect(methods(transport)).toEqual(['tools/list', 'tools/call']);
  });

  it('L-C5: a client pinned to 2025-06-18 skips the probe and offers that version (elicitation without modes)', async () => {
    const { transport, client } = setup(
      {},
      { versionNegotiation: { pin: '2025-06-18' }, handlers: { elicitation: () => ({ action: 'decline' }) } },
    );
    await client.listTools();
    expect(methods(transport)).toEqual(['initialize', 'tools/list']);
    expect(transport.calls('initialize')[0]!.params).toMatchObject({
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
    });
    expect(client.protocolVersion).toBe('2025-06-18');
  });

  it('L-C6: a client pinned to 2025-03-26 declares no elicitation (that version has none)', async () => {
    const { transport, client } = setup(
      {},
      {
        versionNegotiation: { pin: '2025-03-26' },
        handlers: { elicitation: () => ({ action: 'decline' }), sampling: vi.fn() },
      },
    );
    await client.connect();
    expect(transport.calls('initialize')[0]!.params?.capabilities).toEqual({ sampling: {} });
  });

  it('L-C5: a pinned client refuses another version in the answer and closes the transport', async () => {
    const { transport, client } = setup({ version: '2025-11-25' }, { versionNegotiation: { pin: '2025-06-18' } });
    await expect(client.listTools()).rejects.toBeInstanceOf(InvalidResponseError);
    expect(transport.isClosed).toBe(true);
  });

  it.each(['2026-07-28', '2024-11-05', 'junk'])(
    'L-C5: an initialize answer naming %s (not a 2025-era version we speak) is refused',
    async (version) => {
      const { transport, client } = setup({ version });
      await expect(client.connect()).rejects.toThrow(/answered protocol version/);
      expect(transport.isClosed).toBe(true);
      expect(transport.sentNotifications).toEqual([]);
    },
  );

  it('an unknown pin is refused at construction', () => {
    const transport = new FakeTransport(() => ({}));
    expect(
      () => new McpClient({ transport, clientInfo, versionNegotiation: { pin: '2024-11-05' as '2025-11-25' } }),
    ).toThrow(RangeError);
  });
});

describe('session loss (L-C7)', () => {
  it('a 404 re-initializes once, without a new probe (no 2026 header after the fallback), then retries', async () => {
    let lost = true;
    const { transport, client } = setup({
      handle: (req) => {
        if (req.method === 'tools/call' && lost) {
          lost = false;
          throw new TransportError('http_status', 'HTTP 404', { status: 404 });
        }
        return textResult('again');
      },
    });
    await expect(client.callTool('t')).resolves.toMatchObject({ content: [{ text: 'again' }] });
    expect(methods(transport)).toEqual(['server/discover', 'initialize', 'tools/call', 'initialize', 'tools/call']);
  });

  it('a second 404 in a row is the caller’s error', async () => {
    const { transport, client } = setup({
      handle: () => {
        throw new TransportError('http_status', 'HTTP 404', { status: 404 });
      },
    });
    await expect(client.listTools()).rejects.toMatchObject({ code: 'http_status', status: 404 });
    expect(transport.calls('initialize')).toHaveLength(2);
  });
});

describe('2026-only operations in a 2025 session', () => {
  it.each([
    ['updateTask', (c: McpClient) => c.updateTask('t', {})],
    ['resumeTask', (c: McpClient) => c.resumeTask('t')],
    ['discover', (c: McpClient) => c.discover()],
    ['getTask', (c: McpClient) => c.getTask('t')],
  ])('L-C23: %s rejects with UnsupportedInEraError, sending nothing', async (_name, run) => {
    const { transport, client } = setup();
    await expect(run(client)).rejects.toBeInstanceOf(UnsupportedInEraError);
    expect(methods(transport)).toEqual(['server/discover', 'initialize']);
  });
});
