import { freshDatabase, postgresForTests } from '@mcp-tasks/postgres-harness';
import { parkedHeap, stepRoundTrips } from './durableInProcess.js';
import { resumeLatency } from './durableResume.js';
import { workerScaling } from './durableScaling.js';

/**
 * Durable execution (issue 36 item 8, issue 42 item 3), on a private PostgreSQL started for the run: heap per parked
 * task, PostgreSQL round trips per completed step, resume latency after a drain and after kill -9, and tasks/s of
 * two CPU-capped workers against one. Each part has its own database, so no part's tasks reach another's workers.
 */
export async function durableCase(ctx) {
  const postgres = await postgresForTests();
  try {
    const fresh = (name) => freshDatabase(postgres.url, name);
    return [
      ...(await parkedHeap(ctx, await fresh('durable_heap'))),
      ...(await stepRoundTrips(ctx, await fresh('durable_steps'))),
      ...(await resumeLatency(ctx, await fresh('durable_resume'))),
      ...(await workerScaling(ctx, await fresh('durable_scale'))),
    ];
  } finally {
    await postgres.stop();
  }
}
