/** Runs client suites on each fetch the client transport supports: the global fetch (its default) and nodeHttpFetch. */
import { afterAll, beforeEach, describe } from 'vitest';
import type { FetchLike } from '../src/client.js';
import { nodeHttpFetch } from '../src/nodeHttpFetch.js';

let inUse: FetchLike = fetch;

/** The fetch of the running test: pass it as the transport's `fetch` option. */
export const fetchInUse = (): FetchLike => inUse;

/** Declares the suites of `body` twice, once per fetch; {@link fetchInUse} says which one a test runs on. */
export function describeOverEachFetch(body: () => void): void {
  const overNode = nodeHttpFetch();
  afterAll(() => overNode.close());
  describe.each([
    ['global fetch', fetch],
    ['nodeHttpFetch', overNode],
  ] as const)('over %s', (_name, base) => {
    beforeEach(() => {
      inUse = base;
    });
    body();
  });
}
