import type { MeterProvider, TracerProvider } from '@opentelemetry/api';

/**
 * Where a server sends its OpenTelemetry traces and metrics (`McpServerOptions.telemetry`). The server depends on
 * `@opentelemetry/api` only: the host brings the SDK and its exporters. With neither provider configured here nor
 * registered globally (before the server is made), the server records nothing and skips every hook.
 */
export interface TelemetryOptions {
  /** @default the global tracer provider (`trace.getTracerProvider()`) */
  readonly tracerProvider?: TracerProvider;
  /** @default the global meter provider (`metrics.getMeterProvider()`) */
  readonly meterProvider?: MeterProvider;
}
