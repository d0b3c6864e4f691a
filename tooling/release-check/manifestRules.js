// What a published manifest and its tarball must satisfy for someone installing one package from the registry.
// Pure functions (plus one git call in checkBins), so the rules are unit-tested on their own.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Files every tarball must contain besides its export targets. */
export const MUST_SHIP = ['package.json', 'LICENSE', 'README.md'];

const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];

/** `@scope/name` plus an export subpath (`.`, `./client`) as an import specifier. */
export function bareSpecifier(name, subpath) {
  return subpath === '.' ? name : `${name}/${subpath.replace(/^\.\//, '')}`;
}

/** Problems with a package's source manifest and folder (`pkg`: { folder, manifest, dir }). */
export function checkManifest(pkg, rootManifest, rootLicense) {
  const { manifest, folder } = pkg;
  const name = manifest.name ?? folder;
  const problems = [];
  const expect = (ok, what) => {
    if (!ok) problems.push(`${name}: ${what}`);
  };
  expect(manifest.license === 'MIT', 'license must be "MIT"');
  const license = pkg.dir === undefined ? undefined : readIfExists(join(pkg.dir, 'LICENSE'));
  expect(license !== undefined, 'no LICENSE file in the package folder');
  expect(license === undefined || license === rootLicense, 'LICENSE differs from the root LICENSE');
  expect(pkg.dir === undefined || existsSync(join(pkg.dir, 'README.md')), 'no README.md');
  expect(
    manifest.repository?.url !== undefined && manifest.repository.url === rootManifest.repository?.url,
    'repository.url must be the root manifest’s',
  );
  expect(manifest.repository?.directory === `packages/${folder}`, `repository.directory must be "packages/${folder}"`);
  expect(typeof manifest.homepage === 'string' && manifest.homepage !== '', 'homepage is missing');
  expect(manifest.engines?.node === '>=20', 'engines.node must be ">=20"');
  expect(typeof manifest.sideEffects === 'boolean' || Array.isArray(manifest.sideEffects), 'sideEffects is missing');
  expect(Array.isArray(manifest.files) && manifest.files.includes('dist'), 'files must list "dist"');
  expect(manifest.type === 'module', 'type must be "module" (ESM only)');
  expect(typeof manifest.exports === 'object' && manifest.exports !== null, 'exports is missing');
  for (const field of DEPENDENCY_FIELDS)
    for (const [dependency, range] of Object.entries(manifest[field] ?? {}))
      expect(
        !/^workspace:(\*|\d)/.test(range),
        `${field}.${dependency} is "${range}", which publishes an exact version; use "workspace:^"`,
      );
  for (const peer of Object.keys(manifest.peerDependencies ?? {}))
    expect(
      manifest.devDependencies?.[peer] !== undefined,
      `peer ${peer} is not a devDependency, so the package is never built or tested against it`,
    );
  return problems;
}

/** Problems with a manifest as packed: no `workspace:` left, internal dependencies published as ranges. */
export function checkPackedManifest(packed, internalNames) {
  const problems = [];
  for (const field of DEPENDENCY_FIELDS)
    for (const [dependency, range] of Object.entries(packed[field] ?? {})) {
      if (range.startsWith('workspace:'))
        problems.push(`${packed.name}: packed ${field}.${dependency} still says "${range}"`);
      else if (internalNames.has(dependency) && !/^[\^~]/.test(range))
        problems.push(`${packed.name}: packed ${field}.${dependency} is "${range}", an exact version, not a range`);
    }
  return problems;
}

/** Every file an export of `packed` points at, relative to the package root. */
export function exportTargets(packed) {
  const targets = [];
  const visit = (value) => {
    if (typeof value === 'string') targets.push(value.replace(/^\.\//, ''));
    else if (value !== null && typeof value === 'object') for (const inner of Object.values(value)) visit(inner);
  };
  visit(packed.exports);
  return targets;
}

/**
 * Bins of every workspace package must point at a file that exists in a fresh clone (not build output): pnpm links
 * bins at install time, before any build, and warns "Failed to create bin" for each dependent otherwise.
 */
export async function checkBins(root) {
  const problems = [];
  for (const group of ['packages', 'apps', 'tooling']) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const folder of readdirSync(base)) {
      const path = join(base, folder, 'package.json');
      if (!existsSync(path)) continue;
      const manifest = JSON.parse(readFileSync(path, 'utf8'));
      const bins = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
      for (const [bin, target] of Object.entries(bins)) {
        const file = join(base, folder, target);
        if (!existsSync(file) || (await gitIgnores(root, file)))
          problems.push(
            `${manifest.name}: bin ${bin} points at ${target}, which a fresh clone does not have; point it at a committed launcher`,
          );
      }
    }
  }
  return problems;
}

async function gitIgnores(root, file) {
  try {
    await promisify(execFile)('git', ['check-ignore', '-q', file], { cwd: root });
    return true;
  } catch {
    return false;
  }
}

function readIfExists(path) {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/**
 * Bare module specifiers the declaration files import that the packed manifest does not declare (dependencies or
 * peers) and that are not Node built-ins: a consumer's compiler would silently type them as `any` under the
 * common `skipLibCheck`, or fail without it.
 */
export function undeclaredTypeImports(packed, declarationTexts) {
  const declared = new Set(
    DEPENDENCY_FIELDS.flatMap((field) => Object.keys(packed[field] ?? {})).flatMap((name) => [
      name,
      `@types/${name.replace(/^@/, '').replace('/', '__')}`,
    ]),
  );
  const missing = new Set();
  const specifiers = declarationTexts.flatMap((text) => [
    ...[...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gms)].map((m) => m[1]),
    ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
  ]);
  for (const specifier of specifiers) {
    if (specifier.startsWith('.')) continue;
    {
      if (specifier.startsWith('node:')) continue;
      const name = specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : (specifier.split('/')[0] ?? '');
      if (name !== packed.name && !declared.has(name)) missing.add(name);
    }
  }
  return [...missing].map(
    (name) => `${packed.name}: its type declarations import "${name}", which it does not depend on`,
  );
}

/**
 * The consumer project resolves internal dependencies to the tarballs packed next to each other; a registry would
 * serve them only if each range the packed manifest names accepts the version packed (`^0.1.0` takes 0.1.x).
 */
export function internalRangesServed(packed, versions) {
  const problems = [];
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'])
    for (const [name, range] of Object.entries(packed[field] ?? {})) {
      const version = versions.get(name);
      if (version === undefined) continue;
      if (!caretOrTildeAccepts(range, version))
        problems.push(
          `${packed.name}: packed ${field}.${name} is "${range}", which version ${version} does not satisfy`,
        );
    }
  return problems;
}

/** `^x.y.z` / `~x.y.z` / `x.y.z` against a plain `x.y.z` version (what `pnpm pack` writes for workspace ranges). */
export function caretOrTildeAccepts(range, version) {
  const match = /^([\^~]?)(\d+)\.(\d+)\.(\d+)$/.exec(range);
  const have = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (match === null || have === null) return false;
  const [want, got] = [match.slice(2).map(Number), have.slice(1).map(Number)];
  const atLeast =
    got[0] > want[0] || (got[0] === want[0] && (got[1] > want[1] || (got[1] === want[1] && got[2] >= want[2])));
  if (match[1] === '') return got.join('.') === want.join('.');
  if (match[1] === '~') return atLeast && got[0] === want[0] && got[1] === want[1];
  // Caret: the leftmost non-zero part is fixed.
  if (want[0] > 0) return atLeast && got[0] === want[0];
  if (want[1] > 0) return atLeast && got[0] === 0 && got[1] === want[1];
  return got.join('.') === want.join('.');
}
