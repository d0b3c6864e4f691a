import { sharedConfig } from '@mcp-tasks/vitest-config';

export default sharedConfig({ e2e: true });
