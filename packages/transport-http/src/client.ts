export { HttpClientTransport, type HttpClientTransportOptions } from './httpClientTransport.js';
export { readSseEvents } from './readSseEvents.js';
export { mcpNameField } from './routingHeaders.js';
