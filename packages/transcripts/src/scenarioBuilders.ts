import type { Recordable } from './stepTypes.js';
import type { SingleStep, Step, Transcript } from './transcriptSchema.js';

/** The protocol version every transcript speaks. */
export const PROTOCOL_VERSION = '2026-07-28';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Capabilities: the Tasks extension only. */
export const TASKS_ONLY = { extensions: { [TASKS_EXTENSION]: {} } };
/** Capabilities: every input kind plus the Tasks extension. */
export const ALL_CAPS = { elicitation: {}, sampling: {}, roots: { listChanged: true }, ...TASKS_ONLY };

/** The 2026-07-28 request envelope (`_meta`) declaring `caps`. */
export function meta(caps: object = ALL_CAPS): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientCapabilities': caps,
    'io.modelcontextprotocol/clientInfo': { name: 'mcp-tasks-transcripts', version: '1' },
  };
}

/**
 * A step of a scenario before recording: the client side only. `loosen` replaces the recorded expectation of a
 * step whose answer legitimately varies between runs (a race): the only expectations written by hand.
 */
export type SkeletonSingle = Recordable<SingleStep> & { readonly loosen?: unknown };
export type SkeletonStep =
  | SkeletonSingle
  | (Omit<Extract<Step, { kind: 'parallel' }>, 'steps'> & { steps: SkeletonSingle[] });

type Extra = { as?: 'main' | 'other'; capture?: Record<string, string>; loosen?: unknown; caps?: object };

const paramsOf = (params: Record<string, unknown>, caps: object | undefined) => ({ ...params, _meta: meta(caps) });

/** Calls a tool. */
export function callTool(
  name: string,
  tool: string,
  args: Record<string, unknown>,
  extra: Extra & { more?: object } = {},
): SkeletonSingle {
  return request('send', name, 'tools/call', { name: tool, arguments: args, ...extra.more }, extra);
}

/** Sends one request. */
export function send(name: string, method: string, params: Record<string, unknown>, extra: Extra = {}): SkeletonSingle {
  return request('send', name, method, params, extra);
}

/** Polls a request until its answer matches `until`. */
export function poll(
  name: string,
  method: string,
  params: Record<string, unknown>,
  until: unknown,
  extra: Extra & { timeoutMs?: number; expiryOf?: string } = {},
): SkeletonSingle {
  return {
    ...request('poll', name, method, params, extra),
    until,
    timeoutMs: extra.timeoutMs ?? 20_000,
    ...(extra.expiryOf === undefined ? {} : { expiryOf: extra.expiryOf }),
  } as SkeletonSingle;
}

/** Polls `tasks/get` until the task has `status`. */
export function pollStatus(name: string, status: string | string[], extra: Extra = {}): SkeletonSingle {
  const wanted = Array.isArray(status) ? { '<oneOf>': status } : status;
  return poll(name, 'tasks/get', { taskId: '{{taskId}}' }, { result: { status: wanted } }, extra);
}

/** One `tasks/get` of the scenario's task. */
export function getTask(name: string, extra: Extra = {}): SkeletonSingle {
  return send(name, 'tasks/get', { taskId: '{{taskId}}' }, extra);
}

function request(
  kind: 'send' | 'poll',
  name: string,
  method: string,
  params: Record<string, unknown>,
  extra: Extra,
): SkeletonSingle {
  return {
    kind,
    name,
    ...(extra.as === undefined ? {} : { as: extra.as }),
    method,
    params: paramsOf(params, extra.caps),
    ...(extra.capture === undefined ? {} : { capture: extra.capture }),
    ...(extra.loosen === undefined ? {} : { loosen: extra.loosen }),
  } as SkeletonSingle;
}

/** Opens a `subscriptions/listen` stream named `stream`; its first notification is checked. */
export function listen(name: string, stream: string, notifications: object, extra: Extra = {}): SkeletonSingle {
  return {
    ...request('send', name, 'subscriptions/listen', { notifications }, extra),
    kind: 'listen',
    stream,
  } as SkeletonSingle;
}

/** An accepted elicitation answer. */
export const accept = (content: object) => ({ action: 'accept', content });

/** `tasks/update` answering one key of the scenario's task. */
export function update(name: string, key: string, content: object, extra: Extra = {}): SkeletonSingle {
  return send(name, 'tasks/update', { taskId: '{{taskId}}', inputResponses: { [key]: accept(content) } }, extra);
}

/** `tasks/cancel` of the scenario's task. */
export function cancel(name: string, extra: Extra = {}): SkeletonSingle {
  return send(name, 'tasks/cancel', { taskId: '{{taskId}}' }, extra);
}

/** A scenario before recording: the client side of a transcript. */
export type Scenario = Omit<Transcript, 'format' | 'steps' | 'protocolVersion'> & {
  /** The steps to play, without the expectations a recording fills in. */
  readonly steps: SkeletonStep[];
};

/** What a step that creates a task captures: its id, as `{{taskId}}`. */
export const TASK_CREATED = { capture: { taskId: 'result.taskId' } };
