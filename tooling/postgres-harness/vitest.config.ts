import { sharedConfig } from '@mcp-tasks/vitest-config';
import { mergeConfig } from 'vitest/config';

export default mergeConfig(sharedConfig(), { test: { testTimeout: 120_000, hookTimeout: 120_000 } });
