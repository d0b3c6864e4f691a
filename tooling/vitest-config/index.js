// Shared vitest settings: unit tests live in test/**/*.test.ts; end-to-end tests (*.e2e.test.ts) run only
// under `test:e2e`. Tests import sibling packages through their built exports, never through path aliases.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const setupFiles = [fileURLToPath(new URL('./waitForDefaults.js', import.meta.url))];

/** @param {{ e2e?: boolean }} [options] */
export function sharedConfig(options = {}) {
  return defineConfig({
    test: {
      include: options.e2e ? ['test/**/*.e2e.test.ts'] : ['test/**/*.test.ts'],
      exclude: options.e2e ? [] : ['test/**/*.e2e.test.ts', 'node_modules/**'],
      testTimeout: 30_000,
      hookTimeout: 30_000,
      restoreMocks: true,
      setupFiles,
    },
  });
}
