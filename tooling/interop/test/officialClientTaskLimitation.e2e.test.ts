// Documented limitation of the OFFICIAL client (@modelcontextprotocol/client 2.4.0), not of our server: it has no
// support for the Tasks extension (SEP-2663) on 2026-07-28. It can declare the extension (capabilities are free-form),
// but its result decoder accepts only resultType "complete" and "input_required"; a CreateTaskResult
// (resultType "task") rejects the call with SdkError UNSUPPORTED_RESULT_TYPE. Without the declaration our server
// correctly refuses a task-required tool with -32021 (S-rules on capability gating). These assertions are exact, so
// this file breaks when the SDK learns tasks; update the README then.
import { type Client, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKS_EXTENSION } from './helpers/officialClient.js';
import { OFFICIAL_TARGETS, type OfficialTarget } from './helpers/officialClientTargets.js';
import { rejection } from './helpers/rejection.js';

describe.each(OFFICIAL_TARGETS)('official client limitation: tasks over %s', (_name, startTarget) => {
  let target: OfficialTarget;
  let declaring: Client;
  beforeAll(async () => {
    target = await startTarget('conformance');
    declaring = await target.connect({ declareTasks: true });
  });
  afterAll(() => target?.close());

  it('declaring the extension and calling failing_job rejects with UNSUPPORTED_RESULT_TYPE "task"', async () => {
    const error = await rejection(declaring.callTool({ name: 'failing_job', arguments: {} }));
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({
      code: SdkErrorCode.UnsupportedResultType,
      data: { resultType: 'task', method: 'tools/call' },
    });
  });

  it('declaring the extension and calling slow_compute rejects the same way', async () => {
    const error = await rejection(declaring.callTool({ name: 'slow_compute', arguments: { seconds: 1, label: 'x' } }));
    expect(error).toMatchObject({ code: SdkErrorCode.UnsupportedResultType, data: { resultType: 'task' } });
  });

  it('without the declaration a task-required tool is refused by our server with -32021', async () => {
    const client = await target.connect();
    const error = await rejection(client.callTool({ name: 'failing_job', arguments: {} }));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
  });
});
