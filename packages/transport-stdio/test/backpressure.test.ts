import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

const BULKY_SERVER = fileURLToPath(new URL('./fixtures/bulkyServer.mjs', import.meta.url));

const children: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const kill of children.splice(0)) await kill();
});

/** The bulky server as a child process, with its stderr reports parsed as they come. */
function startBulkyServer() {
  const child = spawn(process.execPath, [BULKY_SERVER], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  children.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const reports = { handled: 0, maxHeld: 0 };
  let text = '';
  child.stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    const lines = text.split('\n');
    text = lines.pop() ?? '';
    for (const line of lines) {
      const match = /^handled (\d+) held (\d+) heap (\d+)$/.exec(line);
      if (match === null) continue;
      reports.handled = Number(match[1]);
      reports.maxHeld = Math.max(reports.maxHeld, Number(match[2]));
    }
  });
  return { child, reports };
}

describe('StdioServerTransport backpressure (real child process)', () => {
  it('takes no more work while the client does not read 200 answers of 256 KiB, and answers all once it reads', async () => {
    const count = 200;
    const { child, reports } = startBulkyServer();
    // The client stops reading stdout before it sends anything.
    child.stdout.pause();
    let requests = '';
    for (let id = 1; id <= count; id++) {
      requests += `${JSON.stringify({ jsonrpc: '2.0', id, method: 'big', params: { kib: 256 } })}\n`;
    }
    // One write: all 200 requests reach the server in one read.
    child.stdin.write(requests);

    // The server stops: the number of requests it took stays the same across polls.
    await vi.waitFor(() => expect(reports.handled).toBeGreaterThan(0));
    let previous = -1;
    await vi.waitFor(
      () => {
        const steady = reports.handled === previous;
        previous = reports.handled;
        expect(steady).toBe(true);
      },
      { timeout: 10_000, interval: 200 },
    );
    // Bounded: about the 1 MiB mark plus the answers of the requests running when it was crossed, far from the
    // 50 MiB that 200 answers of 256 KiB take.
    expect(reports.handled).toBeLessThan(40);
    expect(reports.maxHeld).toBeLessThan(8 * 1024 * 1024);

    // Once the client reads, every request is answered.
    const ids = new Set<number>();
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) ids.add((JSON.parse(line) as { id: number }).id);
    });
    child.stdout.resume();
    await vi.waitFor(() => expect(ids.size).toBe(count), { timeout: 30_000, interval: 50 });
    expect(reports.handled).toBe(count);
    // Taking work again kept to the bound too.
    expect(reports.maxHeld).toBeLessThan(8 * 1024 * 1024);
    child.stdin.end();
  });
});
