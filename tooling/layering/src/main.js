// Fails (exit 1) when a published package depends on or imports against the layering arrows (see rules.js), or
// when its src/ breaks the structure rules: the era direction, import circles, module and function size.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkLayering } from './checkLayering.js';
import { applyKnown, checkStructure } from './checkStructure.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const known = JSON.parse(readFileSync(new URL('../known-violations.json', import.meta.url), 'utf8'));
const violations = [...checkLayering(root), ...applyKnown(checkStructure(root), known.violations)];
if (violations.length > 0) {
  process.stderr.write(`Layering violations:\n${violations.map((line) => `  ${line}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('layering: every package keeps to the dependency arrows and the structure rules\n');
