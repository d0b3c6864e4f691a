// Builds the API reference of the published packages (docs/api, or --out <dir>) with TypeDoc, options in
// ../typedoc.json. Any warning fails the run: a public name without documentation, a {@link} that does not resolve,
// a type used in the public API that is not exported.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application } from 'typedoc';
import { publishedEntryPoints, sourcePaths } from './entryPoints.js';

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

const project = await app.convert();
if (project) app.validate(project);
// The TypeDoc CLI applies treatWarningsAsErrors itself; through the API it is ours to apply.
const strict = app.options.getValue('treatWarningsAsErrors');
if (!project || app.logger.hasErrors() || (strict && app.logger.hasWarnings())) {
  console.error('API reference: failed (see the warnings above; every public name needs a JSDoc comment)');
  process.exitCode = 1;
} else {
  const checked = performance.now();
  await app.generateDocs(project, out);
  const seconds = (/** @type {number} */ from, /** @type {number} */ to) => ((to - from) / 1000).toFixed(1);
  console.log(
    `API reference: ${entries.length} entry points of the published packages -> ${out} ` +
      `(checked in ${seconds(started, checked)}s, written in ${seconds(checked, performance.now())}s)`,
  );
}
