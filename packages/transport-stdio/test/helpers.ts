import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** Path of the fake server fixture (runs the built package). */
export const FAKE_SERVER = fileURLToPath(new URL('./fixtures/fakeServer.mjs', import.meta.url));

/** Resolves once `stream` has emitted text containing `needle`; returns everything read so far. */
export function textUntil(stream: Readable, needle: string): Promise<string> {
  let text = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes(needle)) {
        stream.off('data', onData);
        resolve(text);
      }
    };
    stream.on('data', onData);
    stream.once('end', () => reject(new Error(`stream ended before ${JSON.stringify(needle)}; got ${text}`)));
  });
}

/** The fake server spawned with raw pipes: write arbitrary bytes, read stdout one parsed line at a time. */
export class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<number | null>;
  readonly #lines: string[] = [];
  #waiter: (() => void) | undefined;

  constructor(env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [FAKE_SERVER], { env: { ...process.env, ...env } });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    let buffer = '';
    this.child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      this.#lines.push(...parts);
      this.#waiter?.();
    });
  }

  write(text: string | Uint8Array): void {
    this.child.stdin.write(text);
  }

  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  /** Next stdout line, parsed (a non-JSON line fails the test: stdout must carry only messages). */
  async next(): Promise<unknown> {
    while (this.#lines.length === 0) {
      await new Promise<void>((resolve) => {
        this.#waiter = resolve;
      });
    }
    return JSON.parse(this.#lines.shift() ?? '');
  }

  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}
