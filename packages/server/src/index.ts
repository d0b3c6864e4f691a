/**
 * @mcp-tasks/server: a transport-agnostic MCP server runtime: stateless 2026-07-28 with the complete Tasks
 * extension, and 2025-era sessions where the transport carries them. `new McpServer(options).handle` is the
 * `MessageHandler` every transport adapts.
 *
 * @module @mcp-tasks/server
 */

export type { ClaimingWorkerOptions } from './claimingWorker.js';
export { ClaimingWorker } from './claimingWorker.js';
export type {
  ClaimedEvent,
  ExecutionEvent,
  ExecutionEventBase,
  HandedBackEvent,
  ParkedEvent,
  RetryEvent,
  StepEvent,
} from './durableCall.js';
export { PeerRequestError } from './era-2025/index.js';
export { EXECUTION_META_KEY } from './executionMeta.js';
export type { ExecutionOptions, ExecutionRole } from './executionOptions.js';
export type { SchemaInput } from './jsonSchema.js';
export { jsonSchema, RawJsonSchema } from './jsonSchema.js';
export type { LogLevel } from './logLevels.js';
export type { CacheableMethod, CacheHint, McpServerOptions } from './mcpServer.js';
export { McpServer } from './mcpServer.js';
export { InputRequired } from './mrtr.js';
export type {
  Completer,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptResult,
} from './promptRegistry.js';
export type { RequestStateBinding } from './requestState.js';
export { RequestStateSigner } from './requestState.js';
export type {
  ReadResult,
  ResourceDefinition,
  ResourceMetadata,
  ResourceTemplateDefinition,
} from './resourceRegistry.js';
export type { RetryPolicy } from './retryPolicy.js';
export { DEFAULT_RETRY_POLICY, isRetryableError, RetryableError } from './retryPolicy.js';
export type { TaskAbortKind } from './taskAbort.js';
export { isTaskAbort, TaskAbortError } from './taskAbort.js';
export type { ExecutionHost, RunEnd, TaskExecutor } from './taskExecutor.js';
export { isTaskLimitError, TASK_LIMIT_ERROR_CODE } from './taskLimitError.js';
export { TELEMETRY_ATTRIBUTES } from './taskMetrics.js';
export type { TelemetryOptions } from './telemetryOptions.js';
export type {
  HandlerContext,
  InputKind,
  MrtrInfo,
  RequestInfo,
  ToolContext,
  ToolMode,
} from './toolContext.js';
export type { TaskSupport, ToolArgs, ToolDefinition, ToolResult } from './toolRegistry.js';
export { formatTraceparent, parseTraceparent, spanContextFromMeta } from './traceContext.js';
