#!/usr/bin/env node
// `pnpm demo`: builds both apps, saying on stderr what it compiles (a first build takes about a minute), with
// turbo's logs only when the build fails; then runs the demo. A plain script, not compiled, because it runs before
// anything is built; pnpm echoes this one short command line.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const say = (text) => process.stderr.write(`demo: ${text}\n`);
const started = Date.now();
say('building the tool server, the polling client and the packages they use (a first build takes about a minute)…');
const build = spawn(
  'turbo',
  ['run', 'build', '--filter=./apps/polling-client', '--filter=./apps/tool-server', '--output-logs=new-only'],
  { cwd: new URL('../../..', import.meta.url), stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' },
);
let log = '';
let compiled = 0;
build.stderr.setEncoding('utf8').on('data', (chunk) => {
  log += chunk;
});
// turbo prints "<package>:build: cache miss, executing <hash>" as each package starts compiling.
createInterface({ input: build.stdout }).on('line', (line) => {
  log += `${line}\n`;
  const miss = /^(\S+):build: cache miss, executing/.exec(line);
  if (miss === null) return;
  compiled += 1;
  say(`compiling ${miss[1]}`);
});
const [status, failure] = await new Promise((done) => {
  build.once('error', (error) => done([1, error]));
  build.once('close', (code) => done([code, undefined]));
});
if (status !== 0) {
  process.stderr.write(`${log}${failure ? `${failure.message}\n` : ''}`);
  say('the build failed (above); nothing was run');
  process.exit(1);
}
const seconds = ((Date.now() - started) / 1000).toFixed(0);
say(
  compiled === 0
    ? 'everything was already built'
    : `built ${compiled} ${compiled === 1 ? 'package' : 'packages'} in ${seconds} s; starting`,
);
await import('../dist/demo.js');
