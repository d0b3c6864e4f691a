/**
 * @mcp-tasks/transport-stdio: the MCP stdio transport: a server adapter for a `MessageHandler` over a process's
 * stdin/stdout, and a client that spawns the server as a child process.
 *
 * @module @mcp-tasks/transport-stdio
 */

export type { LineSplitterOptions } from './lineSplitter.js';
export { LineSplitter } from './lineSplitter.js';
export type { ChildExit, StdioClientTransportOptions } from './stdioClientTransport.js';
export { StdioClientTransport } from './stdioClientTransport.js';
export type { StdioServerTransportOptions } from './stdioServerTransport.js';
export {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_OUTPUT_HIGH_WATER_MARK,
  StdioServerTransport,
  serveStdio,
} from './stdioServerTransport.js';
