/** Differential cases for the core protocol, and the fixtures the task cases share. */
import type { z } from 'zod';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  CancelledNotificationSchema,
  CompleteResultSchema,
  CreateMessageResultSchema,
  type DetailedTask,
  DiscoverResultSchema,
  type ElicitRequest,
  ElicitResultSchema,
  ErrorCode,
  GetPromptResultSchema,
  HeaderMismatchErrorSchema,
  InputRequiredResultSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  jsonRpcError,
  jsonRpcResult,
  LATEST_PROTOCOL_VERSION,
  ListRootsResultSchema,
  ListToolsResultSchema,
  LoggingMessageNotificationSchema,
  META,
  MissingRequiredClientCapabilityErrorSchema,
  ProgressNotificationSchema,
  ProtocolError,
  ReadResourceResultSchema,
  type RequestMetaObject,
  SUPPORTED_PROTOCOL_VERSIONS,
  SubscriptionsAcknowledgedNotificationSchema,
  SubscriptionsListenRequestSchema,
  SubscriptionsListenResultSchema,
  TASKS_EXTENSION_ID,
  UnsupportedProtocolVersionErrorSchema,
} from '../src/index.js';

/** A message of ours, the zod schema it must pass, and the spec JSON Schema def it must also pass. */
export type Case = readonly [name: string, schema: z.ZodType, which: 'core' | 'tasks', def: string, message: unknown];

export const meta: RequestMetaObject = {
  [META.protocolVersion]: LATEST_PROTOCOL_VERSION,
  [META.clientCapabilities]: { extensions: { [TASKS_EXTENSION_ID]: {} }, elicitation: { form: {} } },
  [META.clientInfo]: { name: 'test-client', version: '1.0.0' },
  [META.logLevel]: 'info',
  [META.progressToken]: 'p-1',
};
export const times = { createdAt: '2026-07-28T10:00:00Z', lastUpdatedAt: '2026-07-28T10:00:05Z', ttlMs: 60_000 };
export const elicit: ElicitRequest = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
};
export const toolResult = { content: [{ type: 'text', text: 'done' }], isError: false };

/** One of each task variant, built as our types. */
export const variants: DetailedTask[] = [
  { taskId: 't-working', status: 'working', ...times, pollIntervalMs: 1000, statusMessage: 'busy' },
  { taskId: 't-input', status: 'input_required', ...times, inputRequests: { ask: elicit } },
  { taskId: 't-done', status: 'completed', ...times, result: { resultType: 'complete', ...toolResult } },
  { taskId: 't-failed', status: 'failed', ...times, error: { code: -32603, message: 'boom' }, statusMessage: 'x' },
  { taskId: 't-cancelled', status: 'cancelled', ...times, ttlMs: null },
];

/** Core messages of ours that both schemas accept. */
export const coreValid: Case[] = [
  ['JSON-RPC request', JSONRPCRequestSchema, 'core', 'JSONRPCRequest', { jsonrpc: '2.0', id: 1, method: 'x' }],
  ['JSON-RPC notification', JSONRPCNotificationSchema, 'core', 'JSONRPCNotification', { jsonrpc: '2.0', method: 'n' }],
  [
    'JSON-RPC result',
    JSONRPCResultResponseSchema,
    'core',
    'JSONRPCResultResponse',
    jsonRpcResult('a', { resultType: 'complete' }),
  ],
  [
    'JSON-RPC error',
    JSONRPCErrorResponseSchema,
    'core',
    'JSONRPCErrorResponse',
    jsonRpcError(2, { code: -32601, message: 'nope' }),
  ],
  [
    'JSON-RPC error, unknown id',
    JSONRPCErrorResponseSchema,
    'core',
    'JSONRPCErrorResponse',
    jsonRpcError(null, new ProtocolError(ErrorCode.ParseError, 'bad json')),
  ],
  [
    '-32020',
    HeaderMismatchErrorSchema,
    'core',
    'HeaderMismatchError',
    jsonRpcError(3, ProtocolError.headerMismatch('Mcp-Name differs')),
  ],
  [
    '-32021',
    MissingRequiredClientCapabilityErrorSchema,
    'core',
    'MissingRequiredClientCapabilityError',
    jsonRpcError(4, ProtocolError.missingRequiredClientCapability({ extensions: { [TASKS_EXTENSION_ID]: {} } })),
  ],
  [
    '-32022',
    UnsupportedProtocolVersionErrorSchema,
    'core',
    'UnsupportedProtocolVersionError',
    jsonRpcError(5, ProtocolError.unsupportedProtocolVersion(SUPPORTED_PROTOCOL_VERSIONS, '2024-01-01')),
  ],
  [
    'tools/call',
    CallToolRequestSchema,
    'core',
    'CallToolRequest',
    { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { _meta: meta, name: 'slow', arguments: { n: 1 } } },
  ],
  [
    'tools/call retry',
    CallToolRequestSchema,
    'core',
    'CallToolRequest',
    {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        _meta: meta,
        name: 'slow',
        inputResponses: {
          ask: { action: 'accept', content: { name: 'Ada' } },
          roots: { roots: [{ uri: 'file:///r' }] },
        },
        requestState: 'opaque',
      },
    },
  ],
  [
    'CallToolResult, every content block',
    CallToolResultSchema,
    'core',
    'CallToolResult',
    {
      resultType: 'complete',
      content: [
        { type: 'text', text: 'hi', annotations: { audience: ['user'], priority: 0.5 } },
        { type: 'image', data: 'aGk=', mimeType: 'image/png' },
        { type: 'audio', data: 'aGk=', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a', name: 'a' },
        { type: 'resource', resource: { uri: 'file:///b', text: 'b' } },
        { type: 'resource', resource: { uri: 'file:///c', blob: 'aGk=' } },
      ],
      structuredContent: { ok: true },
    },
  ],
  [
    'tools/list result',
    ListToolsResultSchema,
    'core',
    'ListToolsResult',
    {
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'public',
      tools: [{ name: 'slow', inputSchema: { type: 'object' } }],
    },
  ],
  [
    'server/discover result',
    DiscoverResultSchema,
    'core',
    'DiscoverResult',
    {
      resultType: 'complete',
      ttlMs: 1000,
      cacheScope: 'public',
      supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      capabilities: { tools: {}, extensions: { [TASKS_EXTENSION_ID]: {} } },
    },
  ],
  [
    'InputRequiredResult',
    InputRequiredResultSchema,
    'core',
    'InputRequiredResult',
    {
      resultType: 'input_required',
      requestState: 'opaque',
      inputRequests: {
        ask: elicit,
        go: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://example.com' } },
        llm: {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'q' } }], maxTokens: 10 },
        },
        roots: { method: 'roots/list' },
      },
    },
  ],
  [
    'ElicitResult',
    ElicitResultSchema,
    'core',
    'ElicitResult',
    { action: 'accept', content: { name: 'Ada', n: 3, ok: true, tags: ['a'] } },
  ],
  [
    'CreateMessageResult',
    CreateMessageResultSchema,
    'core',
    'CreateMessageResult',
    { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' },
  ],
  ['ListRootsResult', ListRootsResultSchema, 'core', 'ListRootsResult', { roots: [{ uri: 'file:///r', name: 'r' }] }],
  [
    'prompts/get result',
    GetPromptResultSchema,
    'core',
    'GetPromptResult',
    { resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] },
  ],
  [
    'resources/read result',
    ReadResourceResultSchema,
    'core',
    'ReadResourceResult',
    { resultType: 'complete', ttlMs: 5, cacheScope: 'private', contents: [{ uri: 'file:///a', text: 'a' }] },
  ],
  [
    'completion result',
    CompleteResultSchema,
    'core',
    'CompleteResult',
    { resultType: 'complete', completion: { values: ['a'], hasMore: false } },
  ],
  [
    'subscriptions/listen with taskIds',
    SubscriptionsListenRequestSchema,
    'core',
    'SubscriptionsListenRequest',
    {
      jsonrpc: '2.0',
      id: 'l1',
      method: 'subscriptions/listen',
      params: { _meta: meta, notifications: { toolsListChanged: true, taskIds: ['t-working'] } },
    },
  ],
  [
    'listen ack with taskIds',
    SubscriptionsAcknowledgedNotificationSchema,
    'core',
    'SubscriptionsAcknowledgedNotification',
    {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: ['t-working'] }, _meta: { [META.subscriptionId]: 'l1' } },
    },
  ],
  [
    'listen result',
    SubscriptionsListenResultSchema,
    'core',
    'SubscriptionsListenResult',
    { resultType: 'complete', _meta: { [META.subscriptionId]: 'l1' } },
  ],
  [
    'progress',
    ProgressNotificationSchema,
    'core',
    'ProgressNotification',
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 1, total: 2 } },
  ],
  [
    'log message',
    LoggingMessageNotificationSchema,
    'core',
    'LoggingMessageNotification',
    { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { a: 1 } } },
  ],
  [
    'cancelled',
    CancelledNotificationSchema,
    'core',
    'CancelledNotification',
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 6, reason: 'user' } },
  ],
];
