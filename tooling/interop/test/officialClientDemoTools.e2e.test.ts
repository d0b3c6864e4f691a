// The official client against our demo tools (`--tools all`): their JSON Schemas (defaults, bounds, enums) pass the
// SDK's tools/list handling, a job tool runs synchronously for a client without the Tasks extension, and an MRTR
// confirmation round (deploy_service) is answered by the SDK's elicitation auto-fulfilment.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ELICITED_NAME } from './helpers/officialClient.js';
import { OFFICIAL_TARGETS, type OfficialTarget } from './helpers/officialClientTargets.js';

describe.each(OFFICIAL_TARGETS)('official client -> our demo tools over %s', (_name, startTarget) => {
  let target: OfficialTarget;
  let client: Client;
  beforeAll(async () => {
    target = await startTarget('all');
    client = await target.connect({ answerElicitation: true });
  });
  afterAll(() => target?.close());

  it('lists the demo tools next to the conformance ones', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['checksum_data', 'deploy_service', 'generate_report', 'test_simple_text']),
    );
  });

  it('runs checksum_data synchronously and returns its structured result', async () => {
    const result = await client.callTool({ name: 'checksum_data', arguments: { megabytes: 1, seed: 'interop' } });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toMatchObject({ megabytes: 1, seed: 'interop', sha256: expect.any(String) });
  });

  it('answers the deploy_service confirmation round (MRTR with signed requestState)', async () => {
    const result = await client.callTool({
      name: 'deploy_service',
      arguments: { service: 'api', version: '1.2.3', environment: 'staging' },
    });
    expect(result.isError ?? false).toBe(false);
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Deployed api@1.2.3') });
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining(`note: ${ELICITED_NAME}`) });
  });
});
