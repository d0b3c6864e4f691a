export { decodeHeaderValue, encodeHeaderValue } from './headerValue.js';
export { HttpClientTransport, type HttpClientTransportOptions } from './httpClientTransport.js';
export { readSseEvents } from './readSseEvents.js';
export { mcpNameField } from './routingHeaders.js';
export { collectParamHeaders } from './toolParamHeaders.js';
