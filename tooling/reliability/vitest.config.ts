import { sharedConfig } from '@mcp-tasks/vitest-config';
import { mergeConfig } from 'vitest/config';

const long = process.env.RELIABILITY_LONG === '1';

// One file at a time: the soak and the resource tests measure this process's heap and file descriptors, which
// other test files running alongside would disturb. `--expose-gc` lets them collect before measuring.
export default mergeConfig(sharedConfig(), {
  test: {
    fileParallelism: false,
    execArgv: ['--expose-gc'],
    testTimeout: long ? 900_000 : 120_000,
    hookTimeout: 60_000,
  },
});
