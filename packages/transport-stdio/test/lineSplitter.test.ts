import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../src/lineSplitter.js';

function collect(maxLineBytes: number) {
  const lines: string[] = [];
  let overflows = 0;
  const splitter = new LineSplitter({ maxLineBytes, onLine: (l) => lines.push(l), onOverflow: () => overflows++ });
  return { splitter, lines, overflows: () => overflows };
}

describe('LineSplitter', () => {
  it('splits on newlines across chunks, drops blank lines and trailing \\r', () => {
    const { splitter, lines } = collect(100);
    splitter.push(Buffer.from('{"a":1}\n{"b"'));
    splitter.push(Buffer.from(':2}\r\n\n  \n{"c":3}'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    splitter.end();
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('decodes a multi-byte character split across chunks', () => {
    const { splitter, lines } = collect(100);
    const bytes = Buffer.from('"é€"\n');
    splitter.push(bytes.subarray(0, 2));
    splitter.push(bytes.subarray(2));
    expect(lines).toEqual(['"é€"']);
  });

  it('reports an over-long line once, discards it without buffering, and continues with the next line', () => {
    const { splitter, lines, overflows } = collect(8);
    splitter.push(Buffer.from('0123456'));
    splitter.push(Buffer.from('789abcdef'));
    splitter.push(Buffer.alloc(1024 * 1024, 0x61));
    expect(overflows()).toBe(1);
    splitter.push(Buffer.from('xyz\nok\n'));
    expect(lines).toEqual(['ok']);
    expect(overflows()).toBe(1);
  });

  it('accepts a line of exactly maxLineBytes', () => {
    const { splitter, lines, overflows } = collect(4);
    splitter.push(Buffer.from('abcd\nabcde\n'));
    expect(lines).toEqual(['abcd']);
    expect(overflows()).toBe(1);
  });
});
