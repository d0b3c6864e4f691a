import { readdirSync, readFileSync } from 'node:fs';

// /proc/<pid>/stat counts CPU time in clock ticks; Linux reports 100 per second to user space (USER_HZ).
const MICROS_PER_TICK = 10_000;

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // gone, or not Linux
  }
}

/** CPU time (user + system, µs) a process has used so far; 0 once it is gone. Linux only (10 ms resolution). */
export function processCpuMicros(pid) {
  const fields = statFields(pid);
  // After the name: state, ppid, …; utime and stime are fields 14 and 15 of the whole line (11 and 12 here).
  return fields === undefined ? 0 : (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
}

/** CPU time (µs) of a process and its direct children (a PostgreSQL postmaster and its backends). */
export function treeCpuMicros(pid) {
  let total = processCpuMicros(pid);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields !== undefined && Number(fields[1]) === pid)
      total += (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
  }
  return total;
}

/** The pid of the PostgreSQL postmaster listening on `port` on this machine (started with `-p <port>`), if any. */
export function postmasterPid(port) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const at = args.indexOf('-p');
      if (args[0]?.endsWith('postgres') && at > 0 && args[at + 1] === String(port)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}
