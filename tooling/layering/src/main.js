// Fails (exit 1) when a published package depends on or imports against the layering arrows (see rules.js).
import { fileURLToPath } from 'node:url';
import { checkLayering } from './checkLayering.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const violations = checkLayering(root);
if (violations.length > 0) {
  process.stderr.write(`Layering violations:\n${violations.map((line) => `  ${line}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('layering: every package keeps to the dependency arrows\n');
