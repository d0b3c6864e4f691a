import { describe, expect, it } from 'vitest';
import { describeConnection } from '../src/session.js';

describe('describeConnection (--verbose)', () => {
  it('names a detected 2025-era session, its version and the server', () => {
    const line = describeConnection(
      {
        era: 'legacy',
        protocolVersion: '2025-06-18',
        initialize: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'old', version: '0.9' } },
      },
      false,
    );
    expect(line).toBe('protocol: MCP 2025-06-18, 2025 era (initialize handshake; detected); server old 0.9');
  });

  it('names a 2026-07-28 connection and what the server supports', () => {
    const line = describeConnection(
      {
        era: 'modern',
        protocolVersion: '2026-07-28',
        discover: {
          resultType: 'complete',
          supportedVersions: ['2026-07-28'],
          capabilities: {},
          ttlMs: 0,
          cacheScope: 'private',
        },
      },
      true,
    );
    expect(line).toBe('protocol: MCP 2026-07-28, 2026-07-28 era (pinned with --protocol); server supports 2026-07-28');
  });
});
