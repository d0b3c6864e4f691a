import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAIN_TOKEN, OTHER_TOKEN, startOwnToolServer } from '../scripts/ownToolServer.mjs';
import { listPackFiles, PACK_DIR, packFiles } from '../src/loadPack.js';
import { recordPack } from '../src/record.js';
import type { SpawnedServer } from '../src/spawnServer.js';

let server: SpawnedServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const RERECORD =
  'the committed pack differs from a fresh recording of apps/tool-server; if the change is intended, re-record with `npx -y pnpm@10.34.8 --filter @mcp-tasks/transcripts... build && npx -y pnpm@10.34.8 --filter @mcp-tasks/transcripts record` and commit transcripts/';

describe('the committed pack', () => {
  it('equals a fresh recording of our tool server over HTTP', async () => {
    server = await startOwnToolServer('http');
    const fresh = packFiles(await recordPack({ url: server.url, token: MAIN_TOKEN, otherToken: OTHER_TOKEN }));
    expect(listPackFiles(PACK_DIR), RERECORD).toEqual([...fresh.keys()].sort());
    for (const [name, text] of fresh)
      expect(readFileSync(join(PACK_DIR, name), 'utf8'), `${name}: ${RERECORD}`).toBe(text);
  });
});
