// `pnpm spec-map`: writes docs/spec-map.md and lists the problems `check` would fail on (exit 1 if any).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSpecMap, MAP_PATH, REPO_ROOT } from './specMap.js';

const { markdown, problems } = buildSpecMap();
writeFileSync(join(REPO_ROOT, MAP_PATH), markdown);
process.stdout.write(`spec-map: wrote ${MAP_PATH}\n`);
if (problems.length > 0) {
  process.stderr.write(`spec-map: ${problems.length} problem(s):\n${problems.map((line) => `  ${line}`).join('\n')}\n`);
  process.exit(1);
}
