import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { deferred, EXT_CAPS, expectCreateTask, Loopback } from './harness.js';

let server: McpServer;
afterEach(async () => server?.close());

describe('tool context', () => {
  it('works destructured: its methods and signal need no `this`', async () => {
    server = new McpServer({ serverInfo: { name: 'ctx', version: '1.0.0' } });
    const gate = deferred();
    server.tool({
      name: 'destructured',
      description: 'Uses its context destructured',
      taskSupport: 'required',
      handler: async (_args, { setStatus, elicit, canRequest, signal, taskId, mode }) => {
        await setStatus('asking');
        const answer = await elicit({
          mode: 'form',
          message: 'Name?',
          requestedSchema: { type: 'object', properties: {} },
        });
        await gate.promise;
        const state = `${mode} ${typeof taskId} ${signal.aborted} ${canRequest('elicitation')} ${answer.action}`;
        return { content: [{ type: 'text', text: state }] };
      },
    });
    const client = new Loopback(server, { caps: EXT_CAPS });
    const taskId = expectCreateTask(await client.call('destructured'));
    const asking = await client.waitForTask(taskId, (task) => task.status === 'input_required');
    expect(asking.statusMessage).toBe('asking');
    const [key] = Object.keys(asking.inputRequests as object);
    await client.ok('tasks/update', { taskId, inputResponses: { [key as string]: { action: 'decline' } } });
    gate.resolve();
    const done = await client.waitForTerminal(taskId);
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'task string false true decline' }] });
  });
});
