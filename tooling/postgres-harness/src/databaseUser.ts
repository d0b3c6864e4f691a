import { execFileSync } from 'node:child_process';

/** The unprivileged account PostgreSQL runs as when this process is root (it refuses to run as root). */
export interface DatabaseUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** Created when the machine has no `postgres` account (a fresh CI machine running as root). */
const CREATED_USER = 'mcp-tasks-pg';

function lookup(name: string): DatabaseUser | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    return Number.isInteger(uid) && uid > 0 ? { name, uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Undefined when this process is not root (PostgreSQL then runs as the current user); otherwise an existing
 * `postgres` account, or a system account created for it with `useradd`.
 */
export function databaseUser(): DatabaseUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const existing = lookup('postgres') ?? lookup(CREATED_USER);
  if (existing !== undefined) return existing;
  execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', CREATED_USER], {
    stdio: 'ignore',
  });
  const created = lookup(CREATED_USER);
  if (created === undefined) throw new Error(`Could not create the system user ${CREATED_USER} to run PostgreSQL`);
  return created;
}
