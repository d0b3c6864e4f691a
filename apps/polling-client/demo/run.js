#!/usr/bin/env node
// `pnpm demo`: builds both apps quietly (turbo's logs only when the build fails), then runs the demo. A plain
// script, not compiled, because it runs before anything is built; pnpm echoes this one short command line.
import { spawnSync } from 'node:child_process';

const build = spawnSync(
  'turbo',
  ['run', 'build', '--filter=./apps/polling-client', '--filter=./apps/tool-server', '--output-logs=errors-only'],
  { cwd: new URL('../../..', import.meta.url), encoding: 'utf8', shell: process.platform === 'win32' },
);
if (build.status !== 0) {
  process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}${build.error ? `${build.error.message}\n` : ''}`);
  process.stderr.write('demo: the build failed (above); nothing was run\n');
  process.exit(1);
}
await import('../dist/demo.js');
