import { postgresForTests } from '@mcp-tasks/postgres-harness';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** One PostgreSQL per test run (or the one MCP_TASKS_POSTGRES_URL names); each suite makes its own database. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await postgresForTests();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
