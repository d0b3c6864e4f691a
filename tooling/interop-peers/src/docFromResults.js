// node src/docFromResults.js [results.json]: writes docs/interop.md from a finished run's results (the cache's
// results.json by default), with the divergences as expected.json records them now.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDivergences, loadExpected } from './expected.js';
import { cacheDir } from './install.js';
import { cellKey } from './runCells.js';
import { writeDoc } from './writeDoc.js';

const results = JSON.parse(readFileSync(process.argv[2] ?? join(cacheDir, 'results.json'), 'utf8'));
writeDoc(results, loadExpected(), cellKey, loadDivergences());
console.log('wrote docs/interop.md');
