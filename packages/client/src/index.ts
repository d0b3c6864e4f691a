/**
 * @mcp-tasks/client: the runtime-neutral MCP 2026-07-28 client with the Tasks extension. `McpClient.callTool`
 * returns the final result whether the server answers directly, asks for input or creates a task; the client also
 * speaks the 2025-era protocols to servers that predate 2026-07-28. Bring a `ClientTransport` (HTTP, WebSocket, stdio).
 *
 * @module @mcp-tasks/client
 */

export type { TaskStatusListener } from './changedStatusListener.js';
export type { ClassifiedResult } from './classifyResult.js';
export { classifyResult } from './classifyResult.js';
export { buildClientCapabilities } from './clientCapabilities.js';
export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
export type { ServerConnection } from './eraConnection.js';
export type { McpClientErrorCode } from './errors.js';
export {
  InputHandlerError,
  InvalidResponseError,
  McpClientError,
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
  TaskNotFoundError,
  TaskStuckError,
  UnsupportedInEraError,
} from './errors.js';
export type { FieldCheck, FieldChoice, FieldKind, FieldType, FormField, JsonValue } from './formFields.js';
export { checkValue, formFields, parseText, typingHint } from './formFields.js';
export type {
  ElicitationHandler,
  InputContext,
  InputHandlers,
  InputOrigin,
  RootsHandler,
  SamplingHandler,
} from './inputResolver.js';
export type { ListenOptions } from './listenOptions.js';
export { McpClient } from './mcpClient.js';
export type {
  CallOptions,
  CallToolOptions,
  McpClientOptions,
  ProgressCallOptions,
  RawCallOptions,
  RawCallToolResult,
  StartToolResult,
  TaskSupportOptions,
} from './mcpClientOptions.js';
export type { Progress, ProgressListener } from './progressHandler.js';
export type { RawResult } from './rpcClient.js';
export type { DriveTaskOptions, TaskObserver, TaskOperations, TaskRpc } from './taskDriver.js';
export { driveTask } from './taskDriver.js';
export type { ExecutionStepView, TaskExecutionView } from './taskExecution.js';
export {
  ExecutionStepViewSchema,
  TASK_EXECUTION_META_KEY,
  TaskExecutionViewSchema,
  taskExecutionOf,
} from './taskExecution.js';
export type { RequestResult } from './taskHandle.js';
export { isTaskHandle } from './taskHandle.js';
export type { TaskJournal, TaskJournalEntry } from './taskJournal.js';
export { InMemoryTaskJournal } from './taskJournal.js';
export type { ListeningObserverOptions, OpenListenStream } from './taskListener.js';
export { listeningObserver } from './taskListener.js';
export type { TaskStatusStream } from './taskStatusStream.js';
export { taskStatusStream } from './taskStatusStream.js';
export type { PollingOptions, ResolvedPollingOptions, TrackedTaskState, TrackerDecision } from './taskTracker.js';
export { pollDelay, resolvePollingOptions, TaskTracker, TERMINAL_STATUSES } from './taskTracker.js';
export type { PinnableProtocolVersion, ProtocolEra, VersionNegotiation } from './versionNegotiation.js';
