import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { startPostgres } from '../src/index.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function query(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

it('restarts on the same data directory and port: refuses connections meanwhile, keeps committed data', async () => {
  const home = mkdtempSync(join(tmpdir(), 'harness-restart-'));
  cleanup.push(() => rmSync(home, { recursive: true, force: true }));
  const server = await startPostgres({ dataDir: home });
  cleanup.push(() => server.stop());
  await query(server.url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');

  let refused: unknown;
  await server.restart(async () => {
    refused = await query(server.url, 'SELECT 1').catch((error: unknown) => error);
  });

  expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
  expect((await query(server.url, 'SELECT n FROM kept')).rows).toEqual([{ n: 42 }]);
  await server.stop();
  await expect(server.restart()).rejects.toThrow(/stopped/);
});
