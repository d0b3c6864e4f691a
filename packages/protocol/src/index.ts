export type {
  ClientRequestOptions,
  ClientTransport,
  MessageHandler,
  RequestContext,
  TransportErrorCode,
  TransportNotification,
  TransportRequest,
  TransportRequestId,
  TransportResponse,
} from './transport.js';
export { TransportError } from './transport.js';
