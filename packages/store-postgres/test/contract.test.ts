import { freshDatabase } from '@mcp-tasks/postgres-harness';
import type { TaskStoreLimits } from '@mcp-tasks/task-store';
import { describeTaskStoreContract, withLatency } from '@mcp-tasks/task-store/testing';
import { beforeAll, inject } from 'vitest';
import { PostgresTaskStore } from '../src/index.js';

let url = '';
let tables = 0;
/** Every test gets an empty store: its own table in the suite's database. */
const open = (limits: TaskStoreLimits) =>
  new PostgresTaskStore({ ...limits, connectionString: url, table: `tasks_${++tables}` });
beforeAll(async () => {
  url = await freshDatabase(inject('postgresUrl'), 'contract');
});

describeTaskStoreContract('PostgresTaskStore', open);
describeTaskStoreContract('PostgresTaskStore, 2 ms late', (limits) => withLatency(open(limits), 2));
