import type { ViteUserConfig } from 'vitest/config';

/** Shared vitest settings: unit tests by default, `*.e2e.test.ts` only when `e2e` is set. */
export function sharedConfig(options?: { e2e?: boolean }): ViteUserConfig;
