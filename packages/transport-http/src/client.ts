export { HttpClientTransport, type HttpClientTransportOptions } from './httpClientTransport.js';
export { readSseEvents } from './readSseEvents.js';
export type { HttpReconnectOptions } from './reconnectPolicy.js';
export { mcpNameField } from './routingHeaders.js';
