// node src/profileTop.js FILE.cpuprofile [N] — the N functions with the most self time in a V8 CPU profile
// (written by `pnpm bench --cpu-prof`), then the self time grouped by package or node module.
import { readFileSync } from 'node:fs';

const [file, count = '25'] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node src/profileTop.js FILE.cpuprofile [N]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}

const byFunction = new Map();
const byModule = new Map();
let busy = 0;
for (const [id, micros] of selfTime) {
  const frame = nodes.get(id).callFrame;
  if (frame.functionName === '(idle)') continue;
  busy += micros;
  const where = frame.url.split('/').slice(-2).join('/');
  const key = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  const pkg =
    frame.url.match(/packages\/([^/]+)\/dist\//)?.[1] ??
    frame.url.match(/node_modules\/\.pnpm\/([^/]+)\//)?.[1] ??
    (frame.url.startsWith('node:') ? frame.url.split('/')[0] : frame.url || frame.functionName);
  byModule.set(pkg, (byModule.get(pkg) ?? 0) + micros);
}

const print = (map, limit) => {
  for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    console.log(
      `${(micros / 1000).toFixed(1).padStart(9)} ms ${((micros / busy) * 100).toFixed(1).padStart(5)} %  ${key}`,
    );
  }
};
console.log(`busy ${(busy / 1000).toFixed(0)} ms (idle excluded)\n\nby function (self time):`);
print(byFunction, Number(count));
console.log('\nby package / module:');
print(byModule, 15);
