/**
 * Small helpers shared by the transport contract checks: requests with fresh ids, result extraction, and the
 * contract handler's state read over the wire.
 */
import {
  type ClientTransport,
  LATEST_PROTOCOL_VERSION,
  META,
  TransportError,
  type TransportRequest,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import { expect } from 'vitest';
import type { ContractState } from './contractHandler.js';

let nextId = 0;

/** The `_meta` every contract request carries (HTTP needs the protocol version for its header). */
export const contractMeta = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  [META.protocolVersion]: LATEST_PROTOCOL_VERSION,
  ...extra,
});

/** A request with a fresh id and the `_meta` HTTP needs for its `MCP-Protocol-Version` header. */
export function contractRequest(method: string, params: Record<string, unknown> = {}): TransportRequest {
  nextId += 1;
  return {
    jsonrpc: '2.0',
    id: `c${nextId}`,
    method,
    params: { ...params, _meta: contractMeta(params._meta as Record<string, unknown> | undefined) },
  };
}

export function resultOf(response: TransportResponse): Record<string, unknown> {
  if (!('result' in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result;
}

/** What the contract handler saw, asked over the transport itself (works when the server runs elsewhere). */
export async function stateOf(client: ClientTransport): Promise<ContractState> {
  return resultOf(await client.request(contractRequest('test/state'))).state as ContractState;
}

export function expectClosedError(error: unknown): void {
  expect(error).toBeInstanceOf(TransportError);
  expect(error).toMatchObject({ name: 'TransportError', code: 'closed' });
}

/** Whether `promise` has settled, without waiting for it (one macrotask turn). */
export async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await new Promise<void>((resolve) => setTimeout(resolve, 0));
  return settled;
}
