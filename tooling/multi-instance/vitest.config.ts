import { sharedConfig } from '@mcp-tasks/vitest-config';
import { mergeConfig } from 'vitest/config';

// Every case here starts real processes and a database: they are the end-to-end suite, run by `test:e2e` only.
export default mergeConfig(sharedConfig({ e2e: true }), {
  test: { globalSetup: ['test/postgresSetup.ts'], testTimeout: 60_000 },
});
