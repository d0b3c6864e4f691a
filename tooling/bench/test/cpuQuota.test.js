import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createCpuQuota } from '../src/lib/cpuQuota.js';

describe('createCpuQuota', () => {
  it('caps a process in a cgroup of its own and removes the group, or says why this machine cannot', async () => {
    const quota = createCpuQuota(`test-${process.pid}`, 0.1);
    if (quota.unavailable !== undefined) {
      // Not root, or no writable cpu controller: the PostgreSQL case then reports only its uncapped row.
      assert.match(quota.unavailable, /cgroup/);
      return;
    }
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      quota.cap.add(child.pid);
      assert.match(
        readFileSync(`/proc/${child.pid}/cgroup`, 'utf8'),
        new RegExp(`mcp-tasks-bench-test-${process.pid}`),
      );
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
      quota.cap.remove();
    }
    for (const dir of ['/sys/fs/cgroup', '/sys/fs/cgroup/cpu']) {
      assert.equal(existsSync(`${dir}/mcp-tasks-bench-test-${process.pid}`), false);
    }
  });
});
