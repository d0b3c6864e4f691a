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
