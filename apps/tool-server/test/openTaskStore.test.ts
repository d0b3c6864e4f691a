import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../src/logger.js';
import { type OpenedTaskStore, openTaskStore } from '../src/openTaskStore.js';

const lines: string[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: (...args: unknown[]) => void lines.push(String(args.at(-1))),
  warn: (...args: unknown[]) => void lines.push(String(args.at(-1))),
  error: (message: string) => void lines.push(message),
};

let opened: OpenedTaskStore | undefined;
let dir: string | undefined;
afterEach(async () => {
  await opened?.store?.close();
  await opened?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  opened = undefined;
  dir = undefined;
  lines.length = 0;
});

describe('openTaskStore', () => {
  it('embedded:DIR logs where the data lives and the URL to connect with', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tool-server-embedded-'));
    // The database may run as an unprivileged account (under root), which must reach DIR through this folder.
    chmodSync(dir, 0o755);
    const dataDir = join(dir, 'data');
    opened = await openTaskStore({ kind: 'embedded', dataDir }, undefined, logger);
    expect(opened.store).toBeDefined();
    const said = lines.find((line) => line.startsWith('embedded PostgreSQL'));
    expect(said).toMatch(
      /^embedded PostgreSQL: data in .+; connect with: psql postgres:\/\/\w+@127\.0\.0\.1:\d+\/\w+$/,
    );
    expect(said).toContain(dataDir);
  }, 120_000);
});
