import { describe, expect, it } from 'vitest';
import { readSseEvents } from '../src/client.js';
import { readSseFrames, type SseFrame } from '../src/readSseEvents.js';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const data of readSseEvents(stream)) out.push(data);
  return out;
}

describe('readSseEvents', () => {
  it('yields one data payload per event and skips comments and other fields', async () => {
    const events = await collect(
      streamOf(':\n\n', 'event: message\nid: 1\ndata: {"a":1}\n\n', ': keep-alive\n\ndata:{"b":2}\n\n'),
    );
    expect(events).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('handles CRLF and CR line endings, even split across chunks', async () => {
    const events = await collect(streamOf('data: one\r', '\n\r', '\ndata: two\r\rdata: three\r\n\r\n'));
    expect(events).toEqual(['one', 'two', 'three']);
  });

  it('joins multi-line data and reassembles UTF-8 split inside a character', async () => {
    const bytes = new TextEncoder().encode('data: é\ndata: second\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 7));
        controller.enqueue(bytes.slice(7));
        controller.close();
      },
    });
    expect(await collect(stream)).toEqual(['é\nsecond']);
  });

  it('delivers a last event without its blank line and ignores fields that only start with "data"', async () => {
    expect(await collect(streamOf('database: x\n\ndata: tail'))).toEqual(['tail']);
  });

  it('cancels the body when the consumer stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const data of readSseEvents(stream)) {
      expect(data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });
});

describe('readSseFrames', () => {
  async function frames(...chunks: string[]): Promise<SseFrame[]> {
    const out: SseFrame[] = [];
    for await (const frame of readSseFrames(streamOf(...chunks))) out.push(frame);
    return out;
  }

  it('L-C9: yields id and retry, including a priming event with empty data', async () => {
    expect(await frames('id: e1\nretry: 500\ndata: \n\n', 'id: e2\ndata: {"a":1}\n\n')).toEqual([
      { data: '', id: 'e1', retry: 500 },
      { data: '{"a":1}', id: 'e2', retry: undefined },
    ]);
  });

  it('yields an event with an id and no data, and ignores a non-numeric retry and an id with NUL', async () => {
    expect(await frames('id: only\n\nretry: soon\nid: a\0b\ndata: x\n\n: comment\n\n')).toEqual([
      { data: undefined, id: 'only', retry: undefined },
      { data: 'x', id: undefined, retry: undefined },
    ]);
  });

  it('readSseEvents skips events that carry no data line', async () => {
    expect(await collect(streamOf('id: 1\nretry: 10\n\ndata: kept\n\n'))).toEqual(['kept']);
  });
});
