#!/usr/bin/env node
// The release dry run: every published package (each packages/* folder whose manifest is not private, found by
// listing, so a new package is covered without editing this file) is packed with `pnpm pack` exactly as `changeset
// publish` would publish it, then installed ALONE into an empty project, with the other internal tarballs it needs
// supplied through `pnpm.overrides` (as if they were on the registry) and third-party dependencies from the
// registry; each internal range the packed manifest names must be satisfied by the version packed alongside it, as
// the registry would check. There each export is imported with node, and a small TypeScript program is compiled
// against its types with the repository's tsc (strict, NodeNext, skipLibCheck: false, so every declaration the
// package ships, and every type package it needs, must resolve from what it declares), then run. Manifest fields a
// registry user relies on are checked on the way. Needs the packages built (`pnpm build`). Exits 1 with one line
// per problem.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  bareSpecifier,
  checkBins,
  checkManifest,
  checkPackedManifest,
  exportTargets,
  internalRangesServed,
  MUST_SHIP,
  undeclaredTypeImports,
} from './manifestRules.js';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
// The consumer gets the @types/node range the workspace catalog pins.
const typesNodeRange =
  /"@types\/node":\s*(\S+)/.exec(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8'))?.[1] ?? '*';
const keep = process.argv.includes('--keep');

/** pnpm itself: the one running this script when there is one, else the pinned version through npx. */
function pnpm(args, cwd) {
  const execPath = process.env.npm_execpath;
  if (execPath !== undefined && /pnpm/.test(execPath))
    return run(process.execPath, [execPath, ...args], { cwd, maxBuffer: 1 << 24 });
  return run('npx', ['-y', rootManifest.packageManager, ...args], { cwd, maxBuffer: 1 << 24 });
}

/** Runs `jobs` with at most `limit` at a time; resolves with their results in order. */
async function pool(jobs, limit) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

function listPackages() {
  const base = join(root, 'packages');
  return readdirSync(base)
    .filter((name) => existsSync(join(base, name, 'package.json')))
    .map((name) => ({ dir: join(base, name), folder: name, manifest: readJson(join(base, name, 'package.json')) }))
    .filter((pkg) => pkg.manifest.private !== true);
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

async function pack(pkg, destination) {
  const { stdout } = await pnpm(['pack', '--json', '--pack-destination', destination], pkg.dir);
  const tarball = JSON.parse(stdout).filename;
  const listing = (await run('tar', ['-tzf', tarball])).stdout
    .split('\n')
    .map((line) => line.replace(/^package\//, ''));
  const packed = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout);
  return { ...pkg, tarball, listing, packed };
}

/** The consumer program: imports every export, and compiles against every export's types. */
function consumerSources(pkg) {
  const specifiers = Object.keys(pkg.packed.exports ?? { '.': null }).map((sub) => bareSpecifier(pkg.packed.name, sub));
  const imports = specifiers.map((spec, i) => `import * as m${i} from '${spec}';`).join('\n');
  const checks = specifiers
    .map(
      (_, i) => `const typed${i}: IsAny<typeof m${i}> = false;\nexport const names${i}: string[] = Object.keys(m${i});`,
    )
    .join('\n');
  const empty = specifiers.map((spec, i) => `if (names${i}.length === 0) throw new Error('${spec} exports nothing');`);
  const program = `${imports}\n// A module whose types failed to resolve would be \`any\` here.\ntype IsAny<T> = 0 extends 1 & T ? true : false;\n${checks}\nexport const checked = [${specifiers.map((_, i) => `typed${i}`).join(', ')}];\n${empty.join('\n')}\nconsole.log('ran against ${pkg.packed.name}');\n`;
  const smoke = `${specifiers
    .map(
      (spec) =>
        `{ const m = await import('${spec}'); if (Object.keys(m).length === 0) throw new Error('${spec} exports nothing'); }`,
    )
    .join('\n')}\n`;
  return { program, smoke };
}

async function tryConsumer(pkg, all, work) {
  const project = join(work, pkg.folder);
  mkdirSync(project, { recursive: true });
  const overrides = Object.fromEntries(all.map((other) => [other.packed.name, `file:${other.tarball}`]));
  const optionalPeers = Object.fromEntries(
    Object.entries(pkg.packed.peerDependencies ?? {}).filter(
      ([name]) => pkg.packed.peerDependenciesMeta?.[name]?.optional,
    ),
  );
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: `consumer-of-${pkg.folder}`,
      private: true,
      type: 'module',
      dependencies: { [pkg.packed.name]: `file:${pkg.tarball}`, ...optionalPeers },
      devDependencies: { '@types/node': typesNodeRange },
      pnpm: { overrides },
    }),
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        // A user who checks libraries too must not meet a missing type package (e.g. @types/pg, TS7016).
        skipLibCheck: false,
        outDir: 'out',
        types: ['node'],
      },
      include: ['program.ts'],
    }),
  );
  const { program, smoke } = consumerSources(pkg);
  writeFileSync(join(project, 'program.ts'), program);
  writeFileSync(join(project, 'smoke.mjs'), smoke);
  const declarations = () =>
    pkg.listing
      .filter((file) => file.endsWith('.d.ts'))
      .map((file) => readFileSync(join(project, 'node_modules', pkg.packed.name, file), 'utf8'));
  const step = async (what, command) => {
    try {
      await command();
      return undefined;
    } catch (error) {
      const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim() || error.message;
      return `${pkg.packed.name}: ${what} failed:\n${output.replace(/^/gm, '    ')}`;
    }
  };
  return (
    ((await step('installing it alone', () =>
      pnpm(
        [
          'install',
          '--ignore-workspace',
          '--no-frozen-lockfile',
          '--config.strict-peer-dependencies=true',
          '--reporter=silent',
          '--prefer-offline',
        ],
        project,
      ),
    )) ??
      (await step('importing it with node', () => run(process.execPath, ['smoke.mjs'], { cwd: project }))) ??
      (await step('compiling a program against its types', () =>
        run(process.execPath, [tsc, '-p', '.'], { cwd: project }),
      )) ??
      (await step('running the compiled program', async () => {
        const { stdout } = await run(process.execPath, ['out/program.js'], { cwd: project });
        if (!stdout.includes(`ran against ${pkg.packed.name}`)) throw new Error(`the program said: ${stdout}`);
      })) ??
      undeclaredTypeImports(pkg.packed, declarations()).join('\n')) ||
    undefined
  );
}

async function main() {
  const started = Date.now();
  const packages = listPackages();
  const rootLicense = readFileSync(join(root, 'LICENSE'), 'utf8');
  const problems = [
    ...packages.flatMap((pkg) => checkManifest(pkg, rootManifest, rootLicense)),
    ...(await checkBins(root)),
  ];
  for (const pkg of packages)
    if (!existsSync(join(pkg.dir, 'dist'))) problems.push(`${pkg.manifest.name}: not built (run pnpm build first)`);
  if (problems.length > 0) return problems;
  const work = mkdtempSync(join(tmpdir(), 'mcp-tasks-release-'));
  try {
    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    const packed = await pool(
      packages.map((pkg) => () => pack(pkg, tarballs)),
      4,
    );
    const names = new Set(packed.map((pkg) => pkg.packed.name));
    const versions = new Map(packed.map((pkg) => [pkg.packed.name, pkg.packed.version]));
    for (const pkg of packed) {
      problems.push(...checkPackedManifest(pkg.packed, names), ...internalRangesServed(pkg.packed, versions));
      for (const file of [...MUST_SHIP, ...exportTargets(pkg.packed)])
        if (!pkg.listing.includes(file)) problems.push(`${pkg.packed.name}: the tarball lacks ${file}`);
    }
    if (problems.length > 0) return problems;
    const failures = await pool(
      packed.map((pkg) => () => tryConsumer(pkg, packed, work)),
      3,
    );
    problems.push(...failures.filter((failure) => failure !== undefined));
    if (problems.length === 0)
      process.stdout.write(
        `release dry run: ${packed.length} packages packed, each installed alone, imported and compiled against (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
    return problems;
  } finally {
    if (keep) process.stdout.write(`kept ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (problems) => {
    for (const problem of problems) process.stderr.write(`release dry run: ${problem}\n`);
    process.exitCode = problems.length === 0 ? 0 : 1;
  },
  (error) => {
    process.stderr.write(`release dry run: ${error instanceof Error ? error.stack : error}\n`);
    process.exitCode = 1;
  },
);
