// Interop failures caused by OUR packages, recorded with `it.fails`: each test states the behaviour we want and
// currently fails, so the suite stays green; when the fix lands the test "unexpectedly passes" and turns red, and
// the lead flips it to a plain `it`. Root causes and fixes are in the README.
import { describe, expect, it } from 'vitest';
import { OFFICIAL_TARGETS } from './helpers/officialClientTargets.js';
import { describeRejection, rejection } from './helpers/rejection.js';

describe.each(OFFICIAL_TARGETS)('known issue: a 2025-era client gets no version hint over %s', (_name, startTarget) => {
  // versioning.mdx ("A server that supports only modern versions SHOULD name the protocol versions it supports in
  // any error it returns to an initialize request, on any transport"). The official server does (see the control
  // suite: -32022 {supported:["2026-07-28"]}); ours answers stdio with -32602 "params._meta is required" and HTTP
  // with -32020 "Missing Mcp-Method header", neither naming 2026-07-28.
  it.fails('refuses a 2025 initialize with an error naming 2026-07-28', async () => {
    const target = await startTarget('conformance');
    try {
      const error = await rejection(target.connect({ negotiation: 'legacy' }));
      expect(describeRejection(error)).toContain('2026-07-28');
    } finally {
      await target.close();
    }
  });
});
