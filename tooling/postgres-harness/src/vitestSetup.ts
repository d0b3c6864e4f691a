// Loads vitest's types so the augmentation below has a module to extend (nothing is imported at run time).
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { postgresForTests } from './index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test run's PostgreSQL server (`inject('postgresUrl')`); make a database per suite with `freshDatabase`. */
    postgresUrl: string;
  }
}

/**
 * A vitest globalSetup: one PostgreSQL per test run (or the one `MCP_TASKS_POSTGRES_URL` names), provided to the
 * tests as `postgresUrl` and stopped when the run ends. Re-export it as the default of a package's setup file.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await postgresForTests();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
