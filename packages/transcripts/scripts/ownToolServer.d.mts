import type { SpawnedServer } from '../src/spawnServer.js';

export declare const TOOL_SERVER_MAIN: string;
export declare const MAIN_TOKEN: string;
export declare const OTHER_TOKEN: string;
export declare const STDIO_COMMAND: string;
export declare function startOwnToolServer(transport: 'http' | 'ws'): Promise<SpawnedServer>;
