import { resolve } from 'node:path';
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
 * Opens the store `--store` names. A PostgreSQL store is migrated now: when the database cannot be reached (or
 * refuses us) this throws an error with a one-line message naming the database (password hidden), so the server
 * exits before it listens instead of failing every call. The embedded database logs where its data lives and the
 * URL to connect to it with (e.g. `psql`).
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
    logger.info(
      { dataDir: resolve(option.dataDir), url: database.url },
      `embedded PostgreSQL: data in ${resolve(option.dataDir)}; connect with: psql ${database.url}`,
    );
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
  try {
    await store.migrate();
  } catch (error) {
    await store.close().catch(() => undefined);
    await stop().catch(() => undefined);
    throw new Error(`cannot use the task store at ${redactedUrl(url)}: ${oneLine(error)}`, { cause: error });
  }
  return { store, stop };
}

/** The URL with its password replaced, for messages. */
function redactedUrl(url: string): string {
  if (!URL.canParse(url)) return 'the --store URL';
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/** An error's message (and its cause's code, e.g. ECONNREFUSED), on one line without a stack. */
function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const messages = error instanceof AggregateError ? error.errors.map((e) => String(e?.message ?? e)) : [];
  const text = error.message !== '' ? error.message : messages.join('; ') || String(code ?? 'unknown error');
  return text.replace(/\s*\n\s*/g, ' ');
}
