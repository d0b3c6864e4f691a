/**
 * @mcp-tasks/protocol: zod 4 schemas and inferred types for MCP 2026-07-28 and the Tasks extension
 * (io.modelcontextprotocol/tasks), plus error codes, `_meta` keys and the transport seam. Runtime-neutral.
 *
 * @module @mcp-tasks/protocol
 */

export type { ClientCapabilities, ServerCapabilities } from './capabilities.js';
export { ClientCapabilitiesSchema, ServerCapabilitiesSchema } from './capabilities.js';
export type {
  CompleteRequest,
  CompleteRequestParams,
  CompleteResult,
  CompleteResultResponse,
  PromptReference,
  ResourceTemplateReference,
} from './completion.js';
export {
  CompleteRequestParamsSchema,
  CompleteRequestSchema,
  CompleteResultResponseSchema,
  CompleteResultSchema,
  PromptReferenceSchema,
  ResourceTemplateReferenceSchema,
} from './completion.js';
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  Resource,
  ResourceContents,
  ResourceLink,
  Role,
  SamplingMessageContentBlock,
  TextContent,
  TextResourceContents,
  ToolResultContent,
  ToolUseContent,
} from './content.js';
export {
  AnnotationsSchema,
  AudioContentSchema,
  BlobResourceContentsSchema,
  ContentBlockSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  ResourceContentsSchema,
  ResourceLinkSchema,
  ResourceSchema,
  RoleSchema,
  SamplingMessageContentBlockSchema,
  TextContentSchema,
  TextResourceContentsSchema,
  ToolResultContentSchema,
  ToolUseContentSchema,
} from './content.js';
export { delay } from './delay.js';
export type { DiscoverRequest, DiscoverResult, DiscoverResultResponse } from './discover.js';
export { DiscoverRequestSchema, DiscoverResultResponseSchema, DiscoverResultSchema } from './discover.js';
export type {
  BooleanSchema,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  EnumSchema,
  LegacyTitledEnumSchema,
  MultiSelectEnumSchema,
  NumberSchema,
  PrimitiveSchemaDefinition,
  SingleSelectEnumSchema,
  StringSchema,
  TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
} from './elicitation.js';
export {
  BooleanSchemaSchema,
  ElicitRequestFormParamsSchema,
  ElicitRequestParamsSchema,
  ElicitRequestSchema,
  ElicitRequestURLParamsSchema,
  ElicitResultSchema,
  EnumSchemaSchema,
  LegacyTitledEnumSchemaSchema,
  MultiSelectEnumSchemaSchema,
  NumberSchemaSchema,
  PrimitiveSchemaDefinitionSchema,
  SingleSelectEnumSchemaSchema,
  StringSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
} from './elicitation.js';
export type {
  HeaderMismatchError,
  MissingRequiredClientCapabilityData,
  MissingRequiredClientCapabilityError,
  UnsupportedProtocolVersionData,
  UnsupportedProtocolVersionError,
} from './errors.js';
export {
  ErrorCode,
  HeaderMismatchErrorSchema,
  isProtocolError,
  MissingRequiredClientCapabilityDataSchema,
  MissingRequiredClientCapabilityErrorSchema,
  ProtocolError,
  UnsupportedProtocolVersionDataSchema,
  UnsupportedProtocolVersionErrorSchema,
} from './errors.js';
export { decodeHeaderValue, encodeHeaderValue } from './headerValue.js';
export type { BaseMetadata, Icon, Icons, Implementation } from './implementation.js';
export { BaseMetadataSchema, IconSchema, IconsSchema, ImplementationSchema } from './implementation.js';
export { isRecord } from './isRecord.js';
export type { JSONArray, JSONObject, JSONValue, JsonObject, MetaObject } from './json.js';
export { JSONArraySchema, JSONObjectSchema, JSONValueSchema, MetaObjectSchema } from './json.js';
export type {
  Error,
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  JSONRPCResultResponse,
  RequestId,
} from './jsonrpc.js';
export {
  ErrorSchema,
  JSONRPC_VERSION,
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResponseSchema,
  JSONRPCResultResponseSchema,
  jsonRpcError,
  jsonRpcResult,
  RequestIdSchema,
} from './jsonrpc.js';
export { encodeMessage, MAX_SHARED_JSON_TEXT, shareJsonText } from './jsonText.js';
export type {
  InitializeRequestParams,
  InitializeResult,
  LegacyClientCapabilities,
  LegacyCreateTaskResult,
  LegacyListTasksResult,
  LegacyProtocolVersion,
  LegacyServerCapabilities,
  LegacyTask,
  LegacyTaskMetadata,
  LegacyTaskSupport,
  MessageEra,
} from './legacy.js';
export {
  hasLegacyTasks,
  InitializeRequestParamsSchema,
  InitializeResultSchema,
  isLegacyProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  LegacyClientCapabilitiesSchema,
  LegacyCreateTaskResultSchema,
  LegacyListTasksResultSchema,
  LegacyServerCapabilitiesSchema,
  LegacyTaskMetadataSchema,
  LegacyTaskSchema,
  LegacyTaskSupportSchema,
  messageEra,
  RELATED_TASK_META_KEY,
} from './legacy.js';
export type { ClientNotification, ClientRequest, ServerNotification } from './messages.js';
export { ClientNotificationSchema, ClientRequestSchema, ServerNotificationSchema } from './messages.js';
export type {
  EmptyResult,
  LoggingLevel,
  NotificationMetaObject,
  NotificationParams,
  ProgressToken,
  RequestMetaObject,
  RequestParams,
  Result,
  ResultMetaObject,
  ResultType,
} from './meta.js';
export {
  EmptyResultSchema,
  LATEST_PROTOCOL_VERSION,
  LoggingLevelSchema,
  META,
  NotificationMetaObjectSchema,
  NotificationParamsSchema,
  ProgressTokenSchema,
  RequestMetaObjectSchema,
  RequestParamsSchema,
  ResultMetaObjectSchema,
  ResultSchema,
  ResultTypeSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './meta.js';
export type {
  InputRequest,
  InputRequests,
  InputRequiredResult,
  InputResponse,
  InputResponseRequestParams,
  InputResponses,
} from './mrtr.js';
export {
  InputRequestSchema,
  InputRequestsSchema,
  InputRequiredResultSchema,
  InputResponseRequestParamsSchema,
  InputResponseSchema,
  InputResponsesSchema,
} from './mrtr.js';
export type {
  CancelledNotification,
  CancelledNotificationParams,
  LoggingMessageNotification,
  LoggingMessageNotificationParams,
  ProgressNotification,
  ProgressNotificationParams,
  ToolListChangedNotification,
} from './notifications.js';
export {
  CancelledNotificationParamsSchema,
  CancelledNotificationSchema,
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
  ProgressNotificationParamsSchema,
  ProgressNotificationSchema,
  ToolListChangedNotificationSchema,
} from './notifications.js';
export { onAbort } from './onAbort.js';
export type { CacheableResult, CacheScope, Cursor, PaginatedRequestParams, PaginatedResult } from './pagination.js';
export {
  CacheableResultSchema,
  CacheScopeSchema,
  CursorSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
} from './pagination.js';
export { collectParamHeaders } from './paramHeaders.js';
export type {
  GetPromptRequest,
  GetPromptRequestParams,
  GetPromptResult,
  GetPromptResultResponse,
  ListPromptsRequest,
  ListPromptsResult,
  ListPromptsResultResponse,
  Prompt,
  PromptArgument,
  PromptListChangedNotification,
  PromptMessage,
} from './prompts.js';
export {
  GetPromptRequestParamsSchema,
  GetPromptRequestSchema,
  GetPromptResultResponseSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultResponseSchema,
  ListPromptsResultSchema,
  PromptArgumentSchema,
  PromptListChangedNotificationSchema,
  PromptMessageSchema,
  PromptSchema,
} from './prompts.js';
export type {
  ListResourcesRequest,
  ListResourcesResult,
  ListResourcesResultResponse,
  ListResourceTemplatesRequest,
  ListResourceTemplatesResult,
  ListResourceTemplatesResultResponse,
  ReadResourceRequest,
  ReadResourceRequestParams,
  ReadResourceResult,
  ReadResourceResultResponse,
  ResourceListChangedNotification,
  ResourceRequestParams,
  ResourceTemplate,
  ResourceUpdatedNotification,
  ResourceUpdatedNotificationParams,
} from './resources.js';
export {
  ListResourcesRequestSchema,
  ListResourcesResultResponseSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultResponseSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceRequestParamsSchema,
  ReadResourceRequestSchema,
  ReadResourceResultResponseSchema,
  ReadResourceResultSchema,
  ResourceListChangedNotificationSchema,
  ResourceRequestParamsSchema,
  ResourceTemplateSchema,
  ResourceUpdatedNotificationParamsSchema,
  ResourceUpdatedNotificationSchema,
} from './resources.js';
export type { ListRootsRequest, ListRootsResult, Root } from './roots.js';
export { ListRootsRequestSchema, ListRootsResultSchema, RootSchema } from './roots.js';
export type {
  CreateMessageRequest,
  CreateMessageRequestParams,
  CreateMessageResult,
  ModelHint,
  ModelPreferences,
  SamplingMessage,
  ToolChoice,
} from './sampling.js';
export {
  CreateMessageRequestParamsSchema,
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  ModelHintSchema,
  ModelPreferencesSchema,
  SamplingMessageSchema,
  ToolChoiceSchema,
} from './sampling.js';
export type {
  SubscriptionFilter,
  SubscriptionsAcknowledgedNotification,
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequest,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
  SubscriptionsListenResultMetaObject,
  SubscriptionsListenResultResponse,
} from './subscriptions.js';
export {
  SubscriptionFilterSchema,
  SubscriptionsAcknowledgedNotificationParamsSchema,
  SubscriptionsAcknowledgedNotificationSchema,
  SubscriptionsListenRequestParamsSchema,
  SubscriptionsListenRequestSchema,
  SubscriptionsListenResultMetaObjectSchema,
  SubscriptionsListenResultResponseSchema,
  SubscriptionsListenResultSchema,
} from './subscriptions.js';
export type { TaskState } from './taskResults.js';
export { createTaskResult, detailedTask, getTaskResult, taskStatusNotification, toTask } from './taskResults.js';
export type {
  CancelledTask,
  CancelTaskRequest,
  CancelTaskResult,
  CompletedTask,
  CreateTaskResult,
  DetailedTask,
  FailedTask,
  GetTaskRequest,
  GetTaskResult,
  InputRequiredTask,
  Task,
  TaskStatus,
  TaskStatusNotification,
  TaskStatusNotificationParams,
  TaskSubscriptionAcknowledgedNotifications,
  TaskSubscriptionNotifications,
  TasksExtensionCapability,
  UpdateTaskRequest,
  UpdateTaskResult,
  WorkingTask,
} from './tasks.js';
export {
  CancelledTaskSchema,
  CancelTaskRequestSchema,
  CancelTaskResultSchema,
  CompletedTaskSchema,
  CreateTaskResultSchema,
  DetailedTaskSchema,
  FailedTaskSchema,
  GetTaskRequestSchema,
  GetTaskResultSchema,
  InputRequiredTaskSchema,
  TASKS_EXTENSION_ID,
  TaskSchema,
  TaskStatusNotificationParamsSchema,
  TaskStatusNotificationSchema,
  TaskStatusSchema,
  TaskSubscriptionAcknowledgedNotificationsSchema,
  TaskSubscriptionNotificationsSchema,
  TasksExtensionCapabilitySchema,
  UpdateTaskRequestSchema,
  UpdateTaskResultSchema,
  WorkingTaskSchema,
} from './tasks.js';
export type { Tool, ToolAnnotations } from './tool.js';
export { ToolAnnotationsSchema, ToolSchema } from './tool.js';
export type {
  CallToolRequest,
  CallToolRequestParams,
  CallToolResult,
  CallToolResultResponse,
  ListToolsRequest,
  ListToolsResult,
  ListToolsResultResponse,
} from './tools.js';
export {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  CallToolResultResponseSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  ListToolsResultResponseSchema,
  ListToolsResultSchema,
} from './tools.js';
export type {
  ClientPeerHandler,
  ClientRequestOptions,
  ClientTransport,
  MessageHandler,
  OutboundRequest,
  ParamHeader,
  PeerRequestOptions,
  PeerSession,
  RequestContext,
  ServerEndpoint,
  TransportClosed,
  TransportErrorCode,
  TransportNotification,
  TransportRequest,
  TransportRequestId,
  TransportResponse,
} from './transport.js';
export { TransportError } from './transport.js';
export { withFields } from './withFields.js';
