// One PostgreSQL for the run, provided to the tests as `postgresUrl`.
export { default } from '@mcp-tasks/postgres-harness/vitest-setup';
