export {
  type Authenticate,
  createHttpHandler,
  type HttpHandler,
  type HttpHandlerOptions,
} from './createHttpHandler.js';
export { httpStatusForError } from './httpStatus.js';
export { type HttpServerHandle, type ListenOptions, listen } from './listen.js';
export type { OriginGuardOptions } from './originGuard.js';
export { type InboundHeaders, validateRequestHeaders } from './validateRequestHeaders.js';
