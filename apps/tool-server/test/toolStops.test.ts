import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToolServer } from '../src/createToolServer.js';
import type { ToolStop } from '../src/toolStops.js';
import { Loopback } from './loopback.js';

let server: ReturnType<typeof createToolServer> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function observed(): { client: Loopback; stops: ToolStop[] } {
  const stops: ToolStop[] = [];
  server = createToolServer({ tools: 'all', onToolStop: (stop) => stops.push(stop) });
  return { client: new Loopback(server), stops };
}

describe('onToolStop', () => {
  it('reports a cancelled task tool once, with its task id and the reason kind', async () => {
    const { client, stops } = observed();
    const taskId = await client.startTask('generate_report', { rows: 1_000_000_000 });
    await client.ok('tasks/cancel', { taskId });
    await vi.waitFor(() => expect(stops).toEqual([{ tool: 'generate_report', taskId, reason: 'cancelled' }]), {
      timeout: 10_000,
    });
    expect(await client.waitForTerminal(taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('reports tools stopped by shutdown as shutdown, and never a tool that ended by itself', async () => {
    const { client, stops } = observed();
    await client.call('slow_compute', { seconds: 0 }, { caps: {} });
    const done = await client.startTask('slow_compute', { seconds: 0 });
    await client.waitForTerminal(done);
    const taskId = await client.startTask('slow_compute', { seconds: 3600 });
    await server?.close();
    expect(stops).toEqual([{ tool: 'slow_compute', taskId, reason: 'shutdown' }]);
  });
});
