// A 2025-era client (the official SDK in legacy negotiation) against our modern-only server.
import { describe, expect, it } from 'vitest';
import { OFFICIAL_TARGETS } from './helpers/officialClientTargets.js';
import { describeRejection, rejection } from './helpers/rejection.js';

describe.each(OFFICIAL_TARGETS)('a 2025-era client is told which versions we speak, over %s', (_name, startTarget) => {
  // versioning.mdx ("A server that supports only modern versions SHOULD name the protocol versions it supports in
  // any error it returns to an initialize request, on any transport"): -32022 with data.supported, like the
  // official server (see the control suite).
  it('refuses a 2025 initialize with an error naming 2026-07-28', async () => {
    const target = await startTarget('conformance');
    try {
      const error = await rejection(target.connect({ negotiation: 'legacy' }));
      expect(describeRejection(error)).toContain('2026-07-28');
    } finally {
      await target.close();
    }
  });
});
