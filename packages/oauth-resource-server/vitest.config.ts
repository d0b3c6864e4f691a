import { sharedConfig } from '@mcp-tasks/vitest-config';

export default sharedConfig();
