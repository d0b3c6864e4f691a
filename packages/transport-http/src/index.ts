export {
  type Authenticate,
  createHttpHandler,
  type HttpHandler,
  type HttpHandlerOptions,
} from './createHttpHandler.js';
export { HttpClientTransport, type HttpClientTransportOptions } from './httpClientTransport.js';
export { httpStatusForError } from './httpStatus.js';
export { type HttpServerHandle, type ListenOptions, listen } from './listen.js';
export type { OriginGuardOptions } from './originGuard.js';
export { readSseEvents } from './readSseEvents.js';
export { mcpNameField } from './routingHeaders.js';
export { type InboundHeaders, validateRequestHeaders } from './validateRequestHeaders.js';
