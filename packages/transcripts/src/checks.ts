import type { TransportNotification } from '@mcp-tasks/protocol';
import { isObject } from './matchValue.js';
import type { Observation } from './observation.js';
import type { Outcome } from './report.js';
import type { CheckName } from './transcriptSchema.js';

/** The verdict of one behaviour check over a scenario's exchanges. */
export interface CheckVerdict {
  /** `pass`, `fail`, or `skip` when the target lacks what the check needs (a second principal). */
  readonly outcome: Outcome;
  /** Why the check failed or was skipped; absent on a pass. */
  readonly reason?: string;
}

type Snapshot = Record<string, unknown> & { readonly taskId: string };
/** A view of a task: what the server showed, or `gone` when it answered that the task does not exist. */
type View = { task: Snapshot | Gone; source: Observation };
type Gone = { readonly gone: string };
const isGone = (task: Snapshot | Gone): task is Gone => typeof (task as Gone).gone === 'string' && !('status' in task);
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** What the server showed of each task, in the order the client saw it (gets, create results, task notifications). */
function snapshots(log: readonly Observation[]): View[] {
  const out: View[] = [];
  for (const source of log) {
    if (source.as !== 'main') continue;
    for (const n of source.notifications)
      if (n.method === 'notifications/tasks' && isTask(n.params)) out.push({ task: n.params, source });
    const result = source.response?.result;
    if (source.method === 'tasks/get' && isTask(result)) out.push({ task: result, source });
    if (source.method === 'tasks/get' && source.response?.error !== undefined)
      out.push({ task: { gone: String(source.params.taskId) }, source });
    if (source.method === 'tools/call' && isTask(result) && typeof result.status === 'string')
      out.push({ task: result, source });
  }
  return out;
}

function isTask(value: unknown): value is Snapshot {
  return isObject(value) && typeof value.taskId === 'string';
}

/** The fields of a task that must never change once it is terminal (everything but `_meta`), as canonical JSON. */
function frozenView(task: Snapshot): string {
  const { _meta: _ignored, resultType: _resultType, ...rest } = task;
  return canonical(rest);
}

/** JSON with object keys sorted at every depth, so equal values give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value) ?? 'null';
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
}

/** A finished task never changes: every later view equals the first terminal one (or the task is gone, for good). */
function terminalImmutable(log: readonly Observation[]): CheckVerdict {
  const first = new Map<string, string>();
  const gone = new Set<string>();
  let examined = 0;
  for (const { task } of snapshots(log)) {
    if (isGone(task)) {
      if (first.has(task.gone)) gone.add(task.gone);
      continue;
    }
    if (gone.has(task.taskId)) return fail(`task ${task.taskId} came back after it was gone`);
    const seen = first.get(task.taskId);
    if (seen !== undefined) {
      examined++;
      if (frozenView(task) !== seen)
        return fail(`task ${task.taskId} changed after it finished: ${seen} then ${frozenView(task)}`);
    } else if (TERMINAL.has(String(task.status))) first.set(task.taskId, frozenView(task));
  }
  return examined > 0 ? pass() : fail('no view of a finished task after it finished was observed');
}

/** Each task ends in exactly one terminal status. */
function oneTerminalState(log: readonly Observation[]): CheckVerdict {
  const statuses = new Map<string, Set<string>>();
  for (const { task } of snapshots(log)) {
    if (isGone(task) || !TERMINAL.has(String(task.status))) continue;
    const set = statuses.get(task.taskId) ?? new Set<string>();
    set.add(String(task.status));
    statuses.set(task.taskId, set);
  }
  if (statuses.size === 0) return fail('no task was seen in a terminal status');
  for (const [taskId, set] of statuses)
    if (set.size > 1) return fail(`task ${taskId} was seen ${[...set].join(' and ')}`);
  return pass();
}

/** An input key names one request for the task's whole life: never reused for another, never back once retired. */
function inputKeysUnique(log: readonly Observation[]): CheckVerdict {
  const requests = new Map<string, string>();
  const retired = new Set<string>();
  const outstanding = new Map<string, Set<string>>();
  for (const { task } of snapshots(log)) {
    if (isGone(task)) continue;
    const keys = isObject(task.inputRequests) ? task.inputRequests : {};
    const now = new Set<string>();
    for (const [key, request] of Object.entries(keys)) {
      const id = `${task.taskId} ${key}`;
      const text = canonical(request);
      if (retired.has(id)) return fail(`task ${task.taskId} reused input key ${key} after it was answered`);
      const before = requests.get(id);
      if (before !== undefined && before !== text)
        return fail(`task ${task.taskId} reused input key ${key} for another request`);
      requests.set(id, text);
      now.add(id);
    }
    for (const id of outstanding.get(task.taskId) ?? []) if (!now.has(id)) retired.add(id);
    outstanding.set(task.taskId, now);
  }
  return requests.size > 0 ? pass() : fail('no input request was observed');
}

/** Input methods a request's declared capabilities allow. */
function allowedMethods(params: Record<string, unknown>): Set<string> {
  const meta = isObject(params._meta) ? params._meta : {};
  const caps = meta['io.modelcontextprotocol/clientCapabilities'];
  const allowed = new Set<string>();
  if (!isObject(caps)) return allowed;
  if (caps.elicitation !== undefined) allowed.add('elicitation/create');
  if (caps.sampling !== undefined) allowed.add('sampling/createMessage');
  if (caps.roots !== undefined) allowed.add('roots/list');
  return allowed;
}

/** Input requests use only the kinds the request that started the work declared. */
function declaredInputKinds(log: readonly Observation[]): CheckVerdict {
  const taskAllowed = new Map<string, Set<string>>();
  let examined = 0;
  const inspect = (requests: unknown, allowed: Set<string>, where: string): CheckVerdict | undefined => {
    if (!isObject(requests)) return undefined;
    examined++;
    for (const [key, request] of Object.entries(requests)) {
      const method = isObject(request) ? String(request.method) : '?';
      if (!allowed.has(method)) return fail(`${where} asked ${method} (key ${key}) which the client did not declare`);
    }
    return undefined;
  };
  for (const source of log) {
    const result = source.response?.result;
    if (source.method === 'tools/call' && isObject(result)) {
      const allowed = allowedMethods(source.params);
      if (typeof result.taskId === 'string') taskAllowed.set(result.taskId, allowed);
      else examined++;
      const miss = inspect(result.inputRequests, allowed, `tools/call ${String(source.params.name)}`);
      if (miss !== undefined) return miss;
    }
  }
  for (const { task } of snapshots(log)) {
    if (isGone(task)) continue;
    const allowed = taskAllowed.get(task.taskId);
    if (allowed === undefined) continue;
    const miss = inspect(task.inputRequests, allowed, `task ${task.taskId}`);
    if (miss !== undefined) return miss;
    examined++;
  }
  return examined > 0 ? pass() : fail('no tool call or task was observed');
}

/** A second principal learns nothing of the first one's tasks and cannot act on them. */
function principalIsolation(log: readonly Observation[], otherUnavailable: string | undefined): CheckVerdict {
  if (otherUnavailable !== undefined)
    return { outcome: 'skip', reason: `needs a second principal: ${otherUnavailable}` };
  const mine = new Set<string>();
  for (const o of log) {
    const result = o.response?.result;
    if (o.as === 'main' && o.method === 'tools/call' && isTask(result)) mine.add(result.taskId);
  }
  const others = log.filter((o) => o.as === 'other');
  if (others.length === 0 || mine.size === 0)
    return fail('no exchange of the second principal with a task of the first');
  for (const o of others) {
    const leaked = [...mine].find(
      (taskId) => mentions(o.response?.result, taskId) || o.notifications.some((n) => mentions(n, taskId)),
    );
    if (leaked !== undefined) return fail(`${o.method} as the second principal revealed task ${leaked}`);
    if (TASK_METHODS.has(o.method) && o.response?.error === undefined)
      return fail(`${o.method} as the second principal succeeded`);
  }
  return pass();
}

function mentions(value: unknown | TransportNotification, taskId: string): boolean {
  return value !== undefined && JSON.stringify(value).includes(taskId);
}

const pass = (): CheckVerdict => ({ outcome: 'pass' });
const fail = (reason: string): CheckVerdict => ({ outcome: 'fail', reason });

/** Runs one behaviour check over the exchanges of a scenario. */
export function runCheck(
  name: CheckName,
  log: readonly Observation[],
  otherUnavailable: string | undefined,
): CheckVerdict {
  switch (name) {
    case 'input-keys-unique':
      return inputKeysUnique(log);
    case 'terminal-immutable':
      return terminalImmutable(log);
    case 'one-terminal-state':
      return oneTerminalState(log);
    case 'principal-isolation':
      return principalIsolation(log, otherUnavailable);
    case 'declared-input-kinds':
      return declaredInputKinds(log);
  }
}
