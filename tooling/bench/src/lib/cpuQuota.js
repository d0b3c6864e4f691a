import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';
// A short period keeps a capped process from running a whole 100 ms burst and then stalling for the rest: the
// quota is enforced every 20 ms, so requests see the cap as a steady rate rather than as pauses.
const PERIOD_MICROS = 20_000;

/**
 * Where this machine lets us cap a process's CPU: cgroup v2 (`cpu.max` in the unified hierarchy, with the `cpu`
 * controller enabled for children) or cgroup v1 (`cpu.cfs_quota_us` in the `cpu` hierarchy). Undefined, with the
 * reason, when neither is writable (not root, a read-only mount, a container without delegation).
 */
function findHierarchy() {
  const v2 = join(CGROUP_ROOT, 'cgroup.subtree_control');
  if (existsSync(v2) && readFileSync(v2, 'utf8').split(/\s+/).includes('cpu')) return { version: 2, dir: CGROUP_ROOT };
  const v1 = join(CGROUP_ROOT, 'cpu');
  if (existsSync(join(v1, 'cpu.cfs_quota_us'))) return { version: 1, dir: v1 };
  return undefined;
}

/**
 * A CPU cap of `cores` (e.g. 0.4) for the processes put into it: a cgroup of its own, `mcp-tasks-bench-<name>`.
 * Stands in for "this instance runs on its own machine or container with that much CPU", which a benchmark of
 * horizontal scaling needs on a machine whose cores the instances, the database and the load generator share.
 *
 * Returns `{ cap }` or `{ unavailable: reason }`; it never throws for a machine that cannot do it.
 * `cap.add(pid)` moves a whole process (all its threads) into the group; `cap.remove()` deletes the group once its
 * processes have exited (best effort: a leftover empty group is harmless, and the next run reuses the name).
 */
export function createCpuQuota(name, cores) {
  const hierarchy = findHierarchy();
  if (hierarchy === undefined) return { unavailable: 'no writable cgroup cpu controller on this machine' };
  const dir = join(hierarchy.dir, `mcp-tasks-bench-${name}`);
  const quota = Math.round(cores * PERIOD_MICROS);
  try {
    mkdirSync(dir, { recursive: true });
    if (hierarchy.version === 2) writeFileSync(join(dir, 'cpu.max'), `${quota} ${PERIOD_MICROS}`);
    else {
      writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_MICROS));
      writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quota));
    }
  } catch (error) {
    return { unavailable: `cannot create a cgroup with a CPU quota (${error.code ?? error.message})` };
  }
  return {
    cap: {
      add(pid) {
        writeFileSync(join(dir, 'cgroup.procs'), String(pid));
      },
      remove() {
        try {
          rmdirSync(dir);
        } catch {
          // Still holding a process that has not exited yet, or already gone: nothing to undo.
        }
      },
    },
  };
}
