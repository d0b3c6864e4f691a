import { readFileSync } from 'node:fs';

/**
 * The soft limit on open file descriptors of this process (`RLIMIT_NOFILE`), read from `/proc/self/limits` on
 * Linux; undefined where that cannot be read (other systems), or when the limit is unlimited.
 */
export function processFdLimit(): number | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/limits', 'latin1');
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  const limit = soft === undefined ? Number.NaN : Number(soft);
  return Number.isSafeInteger(limit) && limit > 0 ? limit : undefined;
}

/**
 * Descriptors kept out of the connection cap for everything else a server opens: its listening sockets, stdio,
 * database connections, files, outgoing requests. An eighth of the limit, at least 64.
 */
export function fdReserve(fdLimit: number): number {
  return Math.max(64, Math.floor(fdLimit / 8));
}
