/** `--otel`: the SDK registered globally, task spans of the sample server's tools, and log lines in their trace. */
import { Writable } from 'node:stream';
import { trace } from '@opentelemetry/api';
import { MetricReader } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliOptions } from '../src/cliOptions.js';
import { createToolServer } from '../src/createToolServer.js';
import { createLogger } from '../src/logger.js';
import { type StartedTelemetry, startTelemetry } from '../src/telemetry.js';
import { Loopback } from './loopback.js';

class TestReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

let started: StartedTelemetry | undefined;
afterEach(async () => {
  await started?.shutdown();
  started = undefined;
});

/** A logger writing its JSON lines into `lines`. */
function capturedLogger(lines: Record<string, unknown>[]) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  return createLogger('info', sink);
}

describe('--otel', () => {
  it('is a flag of the command line, off by default', () => {
    expect(parseCliOptions(['--otel'])).toMatchObject({ otel: true });
    expect(parseCliOptions([])).not.toHaveProperty('otel');
  });

  it('traces the tasks of the server made after it, and log lines in a span carry trace_id and span_id', async () => {
    const spans = new InMemorySpanExporter();
    started = startTelemetry('instance-1', {
      spans: new SimpleSpanProcessor({ exporter: spans }),
      metrics: new TestReader(),
    });
    const lines: Record<string, unknown>[] = [];
    const logger = capturedLogger(lines);
    const server = createToolServer({ tools: 'demo' });
    try {
      const client = new Loopback(server);
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const created = await client.call('generate_report', { rows: 10 }, { meta: { traceparent } });
      const taskId = String(created.taskId);
      await client.waitForTerminal(taskId);
    } finally {
      await server.close();
    }
    const task = spans.getFinishedSpans().find((span) => span.name === 'task generate_report');
    expect(task?.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(task?.resource.attributes['service.instance.id']).toBe('instance-1');
    trace.getTracer('test').startActiveSpan('work', (span) => {
      logger.info('inside a span');
      span.end();
    });
    logger.info('outside');
    const inside = lines.find((line) => line.msg === 'inside a span');
    expect(inside).toMatchObject({
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(lines.find((line) => line.msg === 'outside')).not.toHaveProperty('trace_id');
  });
});
