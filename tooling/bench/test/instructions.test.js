import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countInstructions } from '../src/lib/instructionCount.js';

// `pnpm bench:instructions` counts a few thousand requests after ten thousand; a short count proves the harness:
// the server runs under callgrind, answers over loopback, and its main thread's dump is found and read. The
// requests go one after another with no timeout, so a loaded machine makes the test slower, never failed.
describe('countInstructions', () => {
  it('counts the main-thread instructions of a server under callgrind, per request', async () => {
    const perRequest = await countInstructions('rawHttpEcho', { warmup: 200, requests: 100 });
    // A node:http request costs about 155,000 instructions once warm; fewer than a tenth of that would mean the
    // count missed the requests, a hundred times more that it counted start-up.
    assert.ok(perRequest > 15_000 && perRequest < 15_000_000, `${perRequest} instructions per request`);
  });
});
