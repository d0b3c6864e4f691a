/**
 * `--otel`: the OpenTelemetry SDK of the sample server. The packages depend on `@opentelemetry/api` only; this app
 * brings the official SDK (`@opentelemetry/sdk-trace`, `@opentelemetry/sdk-metrics`) and its OTLP/HTTP exporters,
 * configured by the standard `OTEL_*` environment variables (`OTEL_EXPORTER_OTLP_ENDPOINT`, default
 * `http://localhost:4318`; `OTEL_SERVICE_NAME`). It registers the providers globally (the server's default) with an
 * `AsyncLocalStorage` context manager, so a tool's work and the log lines it causes run in its task's span.
 */
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, type MetricReader, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, type SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { VERSION } from './version.js';

/** How long a shutdown waits for the last export. */
const SHUTDOWN_EXPORT_MS = 2_000;

/** The SDK started for `--otel`. */
export interface StartedTelemetry {
  readonly tracerProvider: TracerProvider;
  readonly meterProvider: MeterProvider;
  /** Exports what is buffered and stops the providers; call after the server closed. */
  shutdown(): Promise<void>;
}

/** What {@link startTelemetry} exports through: OTLP/HTTP unless a test gives its own. */
export interface TelemetryExport {
  readonly spans?: SpanProcessor;
  readonly metrics?: MetricReader;
}

/** Starts the SDK, registered globally, for this process (`instanceId` names it among the instances). */
export function startTelemetry(instanceId: string | undefined, exporters: TelemetryExport = {}): StartedTelemetry {
  const resource = resourceFromAttributes({
    'service.name': process.env.OTEL_SERVICE_NAME ?? 'mcp-tasks-tool-server',
    'service.version': VERSION,
    ...(instanceId === undefined ? {} : { 'service.instance.id': instanceId }),
  });
  const spans = exporters.spans ?? new BatchSpanProcessor({ exporter: new OTLPTraceExporter() });
  const reader =
    exporters.metrics ??
    new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: 10_000 });
  const tracerProvider = new TracerProvider({ resource, spanProcessors: [spans] });
  const meterProvider = new MeterProvider({ resource, readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    tracerProvider,
    meterProvider,
    shutdown: async () => {
      // The last export gets a few seconds: an unreachable collector must not hold the process up to its own exit
      // timeout (the exporters retry).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SHUTDOWN_EXPORT_MS);
      });
      await Promise.race([Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]), deadline]);
      clearTimeout(timer);
      trace.disable();
      metrics.disable();
      context.disable();
    },
  };
}
