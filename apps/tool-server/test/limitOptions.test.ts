import { describe, expect, it } from 'vitest';
import { parseCliOptions, UsageError } from '../src/cliOptions.js';
import { createLogger } from '../src/logger.js';
import { startToolServer } from '../src/startToolServer.js';

describe('limit flags', () => {
  it('reads every limit flag into limits, and leaves limits undefined when none is given', () => {
    const argv = [
      ['--max-connections', '10'],
      ['--max-connections-per-client', '2'],
      ['--headers-timeout-ms', '1000'],
      ['--request-timeout-ms', '2000'],
      ['--idle-timeout-ms', '3000'],
      ['--max-in-flight', '4'],
      ['--max-listens', '5'],
      ['--max-message-bytes', '4096'],
      ['--max-depth', '16'],
    ].flat();
    expect(parseCliOptions(argv)).toMatchObject({
      limits: {
        maxConnections: 10,
        maxConnectionsPerClient: 2,
        headersTimeoutMs: 1000,
        requestTimeoutMs: 2000,
        idleTimeoutMs: 3000,
        maxInFlight: 4,
        maxListens: 5,
        maxMessageBytes: 4096,
        maxDepth: 16,
      },
    });
    expect(parseCliOptions([])).not.toHaveProperty('limits', expect.anything());
  });

  it.each(['0', '-1', '1.5', 'many'])('refuses --max-in-flight %s', (value) => {
    expect(() => parseCliOptions([`--max-in-flight=${value}`])).toThrow(UsageError);
  });

  it('applies --max-connections-per-client to the http server it starts', async () => {
    const started = await startToolServer(
      {
        transport: 'http',
        host: '127.0.0.1',
        port: 0,
        tools: 'demo',
        tokens: [],
        limits: { maxConnectionsPerClient: 1 },
      },
      createLogger('silent'),
    );
    try {
      const { connect } = await import('node:net');
      const url = new URL(started.url as string);
      const held = connect(Number(url.port), url.hostname);
      await new Promise((resolve) => held.once('connect', resolve));
      const res = await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('5');
      held.destroy();
    } finally {
      await started.stop();
    }
  });
});
