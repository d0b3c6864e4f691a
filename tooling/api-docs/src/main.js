// Builds the API reference of the published packages (docs/api, or --out <dir>) with TypeDoc, options in
// ../typedoc.json. Any warning fails the run: a public name without documentation, a {@link} that does not resolve,
// a type used in the public API that is not exported.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application } from 'typedoc';
import { publishedEntryPoints, sourcePaths } from './entryPoints.js';
import { PENDING } from './pending.js';
import { undocumentedPackage } from './undocumented.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..', '..');
const outFlag = process.argv.indexOf('--out');
const out = (outFlag === -1 ? undefined : process.argv[outFlag + 1]) ?? join(repoRoot, 'docs', 'api');

const started = performance.now();
const entries = publishedEntryPoints(join(repoRoot, 'packages'));
const app = await Application.bootstrapWithPlugins({
  options: join(here, '..', 'typedoc.json'),
  entryPoints: entries.map((entry) => entry.source),
  compilerOptions: { paths: sourcePaths(entries) },
  // Names are attributed to the package.json above their file; by default only this tooling package's would count.
  packagesRequiringDocumentation: [...new Set(entries.map((entry) => entry.packageName))],
});

// --strict: count no package as pending (lists every gap).
const pending = process.argv.includes('--strict') ? [] : [...PENDING];
const pendingGaps = new Map(pending.map((name) => [name, 0]));
const log = app.logger.log.bind(app.logger);
app.logger.log = (/** @type {string} */ message, /** @type {import('typedoc').LogLevel} */ level) => {
  const pkg = undocumentedPackage(message);
  if (pkg !== undefined && pendingGaps.has(pkg)) pendingGaps.set(pkg, (pendingGaps.get(pkg) ?? 0) + 1);
  else log(message, level);
};

const project = await app.convert();
if (project) app.validate(project);
const strict = app.options.getValue('treatWarningsAsErrors');
const failed = !project || app.logger.hasErrors() || (strict && app.logger.hasWarnings());
for (const [name, gaps] of pendingGaps) {
  if (gaps === 0)
    app.logger.error(`${name} is fully documented: remove it from PENDING in tooling/api-docs/src/pending.js`);
  else console.log(`pending: ${name} has ${gaps} undocumented public names`);
}
if (failed || app.logger.hasErrors()) {
  process.exitCode = 1;
} else {
  await app.generateDocs(project, out);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `API reference: ${entries.length} entry points of ${PENDING.size === 0 ? 'all' : 'the'} published packages -> ${out} (${seconds}s)`,
  );
}
