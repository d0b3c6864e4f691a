import { TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { CloseSignal } from '../src/index.js';

describe('CloseSignal', () => {
  it('reports the first close only, to listeners attached before and after it', async () => {
    const signal = new CloseSignal();
    const early = signal.closed;
    expect(signal.isSettled).toBe(false);
    const error = new TransportError('closed', 'peer gone');
    expect(signal.settle({ initiator: 'remote', error })).toBe(true);
    expect(signal.settle({ initiator: 'local' })).toBe(false);
    expect(signal.isSettled).toBe(true);
    expect(await early).toEqual({ initiator: 'remote', error });
    expect(await signal.closed).toEqual({ initiator: 'remote', error });
  });
});
