import { sharedConfig } from '@mcp-tasks/vitest-config';
import { mergeConfig } from 'vitest/config';

export default mergeConfig(sharedConfig(), { test: { globalSetup: ['test/globalSetup.ts'] } });
