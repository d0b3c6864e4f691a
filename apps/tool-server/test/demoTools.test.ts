import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolServer } from '../src/createToolServer.js';
import { CHUNK_BYTES, PseudoRandom, seedOf } from '../src/dataJobs.js';
import { BASE_CAPS, firstText, Loopback } from './loopback.js';

let server: ReturnType<typeof createToolServer>;
let client: Loopback;
beforeEach(() => {
  server = createToolServer({ tools: 'demo' });
  client = new Loopback(server);
});
afterEach(() => server.close());

const accept = (content: object) => ({ action: 'accept', content });

function expectedDigest(seed: string, megabytes: number): string {
  const random = new PseudoRandom(seedOf(seed));
  const hash = createHash('sha256');
  const words = new Uint32Array(CHUNK_BYTES / 4);
  for (let i = 0; i < megabytes; i++) {
    random.fill(words);
    hash.update(words);
  }
  return hash.digest('hex');
}

describe('checksum_data', () => {
  it('hashes the generated data synchronously, with monotonic progress notifications', async () => {
    const { response, notifications } = await client.send(
      'tools/call',
      { name: 'checksum_data', arguments: { megabytes: 3, seed: 's' } },
      { caps: {}, meta: { progressToken: 't' } },
    );
    const result = (response as unknown as { result: { structuredContent: { sha256: string } } }).result;
    expect(result.structuredContent.sha256).toBe(expectedDigest('s', 3));
    const progress = notifications.map((n) => (n.params as { progress: number }).progress);
    expect(progress.at(-1)).toBe(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('as a task, reports statusMessage while working and stops when cancelled', async () => {
    const taskId = await client.startTask('checksum_data', { megabytes: 60_000 });
    const working = await client.waitForTask(taskId, (t) => typeof t.statusMessage === 'string');
    expect(working.statusMessage).toMatch(/^hashing: \d+\/60000 MiB$/);
    await client.ok('tasks/cancel', { taskId });
    const task = await client.waitForTerminal(taskId);
    expect(task.status).toBe('cancelled');
  });
});

describe('deploy_service (elicitation mid-way)', () => {
  it('as a task: builds, asks through a form, then rolls out on confirm', async () => {
    const taskId = await client.startTask('deploy_service', { service: 'api', version: '1.2.3' });
    const requests = await client.waitForInput(taskId);
    const [key, request] = Object.entries(requests)[0] ?? [];
    expect(request?.method).toBe('elicitation/create');
    expect(String(request?.params.message)).toMatch(/^Deploy api@1\.2\.3 \(build [0-9a-f]{12}\) to staging\?$/);
    await client.ok('tasks/update', { taskId, inputResponses: { [key ?? '']: accept({ confirm: true, note: 'n' }) } });
    const task = await client.waitForTerminal(taskId);
    expect(task.status).toBe('completed');
    expect(firstText(task.result as never)).toMatch(
      /^Deployed api@1\.2\.3 to staging, build [0-9a-f]{12} \(note: n\)$/,
    );
  });

  it('as a task: a declined form ends the job without deploying', async () => {
    const taskId = await client.startTask('deploy_service', {
      service: 'api',
      version: '2',
      environment: 'production',
    });
    const [key] = Object.keys(await client.waitForInput(taskId));
    await client.ok('tasks/update', { taskId, inputResponses: { [key ?? '']: { action: 'decline' } } });
    const task = await client.waitForTerminal(taskId);
    expect(firstText(task.result as never)).toContain('cancelled by the user');
  });

  it('synchronously: the same ctx.elicit becomes an MRTR round, and the retry replays the answer', async () => {
    const first = await client.call('deploy_service', { service: 'web', version: '9' }, { caps: BASE_CAPS });
    expect(first).toMatchObject({ resultType: 'input_required' });
    const [key, request] = Object.entries(first.inputRequests as Record<string, { method: string }>)[0] ?? [];
    expect(request?.method).toBe('elicitation/create');
    expect(typeof first.requestState).toBe('string');
    const second = await client.call(
      'deploy_service',
      { service: 'web', version: '9' },
      {
        caps: BASE_CAPS,
        extra: { inputResponses: { [key ?? '']: accept({ confirm: true }) }, requestState: first.requestState },
      },
    );
    expect(firstText(second)).toMatch(/^Deployed web@9 to staging/);
  });

  it('refuses up front, before any task, a client that cannot answer a form (-32021)', async () => {
    const error = await client.fail(
      'tools/call',
      { name: 'deploy_service', arguments: { service: 'a', version: '1' } },
      { caps: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    );
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });
});

describe('summarize_text (sampling)', () => {
  it("as a task: asks the client's model and combines its answer with local statistics", async () => {
    const input = 'Tasks make long jobs pollable. Tasks survive disconnects! Polling tasks is simple.';
    const taskId = await client.startTask('summarize_text', { text: input, maxWords: 10 });
    const [key, request] = Object.entries(await client.waitForInput(taskId))[0] ?? [];
    expect(request?.method).toBe('sampling/createMessage');
    const answer = { role: 'assistant', content: { type: 'text', text: 'Tasks are pollable.' }, model: 'm' };
    await client.ok('tasks/update', { taskId, inputResponses: { [key ?? '']: answer } });
    const task = await client.waitForTerminal(taskId);
    const result = task.result as { structuredContent: Record<string, unknown> };
    expect(result.structuredContent).toMatchObject({ summary: 'Tasks are pollable.', words: 12, sentences: 3 });
    expect((result.structuredContent.topTerms as string[])[0]).toBe('tasks');
  });
});

describe('jobs that end badly', () => {
  it('verify_backup finds the corrupted chunk and completes with isError (a tool error)', async () => {
    const task = await client.waitForTerminal(await client.startTask('verify_backup', { megabytes: 4 }));
    expect(task.status).toBe('completed');
    expect(task.result).toMatchObject({ isError: true });
    expect(firstText(task.result as never)).toMatch(/^Backup verification failed: chunk \d of 4 differs/);
  });

  it('sync_inventory fails the task with a JSON-RPC error after importing the good pages', async () => {
    const task = await client.waitForTerminal(await client.startTask('sync_inventory', { pages: 2 }));
    expect(task).toMatchObject({ status: 'failed', error: { code: -32603, data: { page: 2, importedPages: 1 } } });
    expect(task.statusMessage).toContain('malformed page 2');
  });
});

describe('generate_report (task required)', () => {
  it('answers -32021 without the extension and aggregates as a task with it', async () => {
    const error = await client.fail('tools/call', { name: 'generate_report', arguments: {} }, { caps: {} });
    expect(error.code).toBe(-32021);
    const task = await client.waitForTerminal(await client.startTask('generate_report', { rows: 10_000 }));
    const stats = (task.result as { structuredContent: { rows: number; mean: number; histogram: number[] } })
      .structuredContent;
    expect(stats.rows).toBe(10_000);
    expect(stats.histogram.reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(stats.mean).toBeGreaterThan(0.45);
    expect(stats.mean).toBeLessThan(0.55);
  });
});

describe('count_steps', () => {
  it('reports every step (progress synchronously, statusMessage in a task) and counts them', async () => {
    const { response, notifications } = await client.send(
      'tools/call',
      { name: 'count_steps', arguments: { steps: 3, intervalMs: 0 } },
      { caps: {}, meta: { progressToken: 't' } },
    );
    expect((response as unknown as { result: { structuredContent: unknown } }).result.structuredContent).toEqual({
      steps: 3,
    });
    expect(notifications.map((n) => (n.params as { message: string }).message)).toEqual([
      'counted 1/3 steps',
      'counted 2/3 steps',
      'counted 3/3 steps',
    ]);
    const task = await client.waitForTerminal(await client.startTask('count_steps', { steps: 2, intervalMs: 0 }));
    expect(task).toMatchObject({ status: 'completed' });
    expect(firstText(task.result as never)).toBe('Counted 2 steps');
  });

  it('stops at the next step when cancelled', async () => {
    const taskId = await client.startTask('count_steps', { steps: 1000, intervalMs: 60_000 });
    await client.ok('tasks/cancel', { taskId });
    expect(await client.waitForTerminal(taskId)).toMatchObject({ status: 'cancelled' });
  });
});
