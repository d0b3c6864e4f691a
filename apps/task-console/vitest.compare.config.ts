import { defineConfig } from 'vitest/config';

// `pnpm compare:inspector` only: screenshots of the MCP Inspector's web UI and of this console (slow, not in check).
export default defineConfig({
  test: { include: ['test/**/*.compare.ts'], testTimeout: 180_000, hookTimeout: 60_000 },
});
