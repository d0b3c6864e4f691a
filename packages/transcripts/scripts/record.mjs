#!/usr/bin/env node
// Re-records the pack (transcripts/) from this repository's tool server over HTTP. Run after a deliberate change
// of behaviour: `pnpm --filter @mcp-tasks/transcripts... build && pnpm --filter @mcp-tasks/transcripts record`.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACK_DIR, packFiles, recordPack } from '../dist/index.js';
import { MAIN_TOKEN, OTHER_TOKEN, startOwnToolServer } from './ownToolServer.mjs';

const server = await startOwnToolServer('http');
try {
  const transcripts = await recordPack({ url: server.url, token: MAIN_TOKEN, otherToken: OTHER_TOKEN });
  rmSync(PACK_DIR, { recursive: true, force: true });
  mkdirSync(PACK_DIR, { recursive: true });
  for (const [name, text] of packFiles(transcripts)) writeFileSync(join(PACK_DIR, name), text);
  process.stdout.write(`recorded ${transcripts.length} transcripts into ${PACK_DIR}\n`);
} finally {
  await server.stop();
}
