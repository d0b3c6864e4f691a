import type { TaskStore, TaskStoreLimits } from '@mcp-tasks/task-store';
import type { StoreOption } from './cliOptions.js';
import { describeError, type Logger } from './logger.js';

/** The task store of `--store`, and what to stop after the server closed it (a private database). */
export interface OpenedTaskStore {
  /** Undefined for `memory`: the server makes its own. */
  readonly store: TaskStore | undefined;
  /** Stops a database started for this process (embedded); nothing otherwise. */
  stop(): Promise<void>;
}

/**
 * Opens the store `--store` names. A PostgreSQL store is migrated now so a wrong URL shows in the log at start;
 * the server starts anyway and answers `-32603` naming the database until it can reach it.
 */
export async function openTaskStore(
  option: StoreOption,
  instanceId: string | undefined,
  logger: Logger,
  limits: TaskStoreLimits = {},
): Promise<OpenedTaskStore> {
  if (option.kind === 'memory') return { store: undefined, stop: async () => undefined };
  const { PostgresTaskStore } = await import('@mcp-tasks/store-postgres');
  let url: string;
  let stop = async (): Promise<void> => undefined;
  if (option.kind === 'embedded') {
    const { startPostgres } = await import('@mcp-tasks/postgres-harness');
    const database = await startPostgres({ dataDir: option.dataDir });
    logger.info(`embedded PostgreSQL on ${option.dataDir} (port ${database.port})`);
    url = database.url;
    stop = () => database.stop();
  } else {
    url = option.url;
  }
  const store = new PostgresTaskStore({
    ...limits,
    connectionString: url,
    ...(instanceId === undefined ? {} : { instanceId }),
    onError: (error) => logger.warn(`task store: ${describeError(error)}`),
  });
  await store.migrate().catch((error: unknown) => logger.error(describeError(error)));
  return { store, stop };
}
