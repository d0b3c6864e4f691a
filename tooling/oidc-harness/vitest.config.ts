import { sharedConfig } from '@mcp-tasks/vitest-config';
import { mergeConfig } from 'vitest/config';

export default mergeConfig(sharedConfig(), { test: { testTimeout: 30_000, hookTimeout: 30_000 } });
