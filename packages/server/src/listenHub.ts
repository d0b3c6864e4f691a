import { META, onAbort, type TransportNotification, type TransportRequestId, withFields } from '@mcp-tasks/protocol';
import type { TaskOperations, Unsubscribe } from '@mcp-tasks/task-store';
import { declaresTasks, TASKS_REQUIRED_CAPABILITIES } from './capabilities.js';
import { invalidParams, missingCapability } from './errors.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import { TaskWatch } from './taskWatch.js';

/** The list whose change a `list_changed` notification announces. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** The honoured part of a `subscriptions/listen` filter, as acknowledged. */
export interface ListenFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
  taskIds?: string[];
}

/** One open listen stream. */
interface Stream {
  readonly filter: ListenFilter;
  readonly send: (method: string, params: JsonObject) => void;
  /** Ends the stream gracefully (its `listen` resolves with the result). Idempotent. */
  readonly end: () => void;
}

/** What a listen request needs from the server. */
export interface ListenRequest {
  readonly id: TransportRequestId;
  readonly params: JsonObject;
  readonly clientCapabilities: JsonObject;
  readonly owner: string;
  readonly notify: (notification: TransportNotification) => void;
  readonly signal: AbortSignal;
}

const LIST_FLAG = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const;

function readStrings(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw invalidParams(`Invalid params: notifications.${field} must be an array of strings`);
  }
  return value;
}

function readFlag(value: unknown, field: string): boolean {
  if (value !== undefined && typeof value !== 'boolean') {
    throw invalidParams(`Invalid params: notifications.${field} must be a boolean`);
  }
  return value === true;
}

/**
 * Serves `subscriptions/listen` streams. The ack is the first message of a stream; every notification,
 * including the ack, carries `_meta["io.modelcontextprotocol/subscriptionId"]` (the listen request's id); only
 * requested types are sent. Task notifications carry the full `DetailedTask` and go only to streams whose
 * ack listed the id, which only ever lists the caller's own tasks.
 */
export class ListenHub {
  readonly #store: TaskOperations;
  readonly #maxTaskIds: number;
  readonly #streams = new Set<Stream>();
  /**
   * Set by {@link close}. The hub ends its streams itself rather than through a shared `AbortSignal`: one abort
   * listener per open stream on one signal makes Node warn of a leak (`MaxListenersExceededWarning`) from the 11th
   * stream on, which a server with many listening clients reaches in normal use.
   */
  #closed = false;

  /** `maxTaskIds`: the most distinct task ids one stream considers (see `McpServerOptions.tasks`). */
  constructor(store: TaskOperations, maxTaskIds: number) {
    this.#store = store;
    this.#maxTaskIds = maxTaskIds;
  }

  /** Sends `notifications/<kind>/list_changed` to every open stream that asked for it. */
  listChanged(kind: ListKind): void {
    for (const stream of this.#streams) {
      if (stream.filter[LIST_FLAG[kind]]) stream.send(`notifications/${kind}/list_changed`, {});
    }
  }

  /** Sends `notifications/resources/updated` to every open stream subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    for (const stream of this.#streams) {
      if (stream.filter.resourceSubscriptions?.includes(uri)) stream.send('notifications/resources/updated', { uri });
    }
  }

  /**
   * Runs one stream: validates the filter (`-32021` for `taskIds` without the Tasks extension), sends the ack,
   * then the current state of each acknowledged task and every later change. Only the first `maxTaskIds` distinct
   * ids requested are considered; the ack leaves out the rest, which the client then polls. An acknowledged task that expires
   * is dropped from the stream, since no `DetailedTask` exists for it any more; once no acknowledged task and
   * no list or resource subscription remains the stream ends, so the client's next `tasks/get` learns of the
   * expiry (`-32602`). Resolves with the listen result then, or when the request's signal aborts or the hub closes.
   */
  async listen(request: ListenRequest): Promise<JsonObject> {
    const filterIn = request.params.notifications;
    if (!isJsonObject(filterIn)) throw invalidParams('Invalid params: notifications must be an object');
    const resourceSubscriptions = readStrings(filterIn.resourceSubscriptions, 'resourceSubscriptions');
    const taskIds = readStrings(filterIn.taskIds, 'taskIds');
    if (taskIds !== undefined && !declaresTasks(request.clientCapabilities)) {
      throw missingCapability(TASKS_REQUIRED_CAPABILITIES, 'Task notifications need the Tasks extension');
    }
    const filter: ListenFilter = {};
    for (const field of Object.values(LIST_FLAG)) if (readFlag(filterIn[field], field)) filter[field] = true;
    if (resourceSubscriptions !== undefined) filter.resourceSubscriptions = [...new Set(resourceSubscriptions)];

    const meta = { [META.subscriptionId]: request.id };
    const send = (method: string, params: JsonObject) => {
      // A durable task's notification has `_meta` of its own (its execution): the subscription id joins it.
      const own = params._meta;
      const _meta = isJsonObject(own) ? { ...own, ...meta } : meta;
      request.notify({ jsonrpc: '2.0', method, params: withFields(params, { _meta }) });
    };
    let end!: () => void;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    // Ends this stream by itself once nothing it watches can produce a notification any more.
    const onEmpty = hasStandingSubscription(filter) ? undefined : end;
    let unlisten: Unsubscribe | undefined;
    try {
      let tasks: TaskWatch | undefined;
      if (taskIds !== undefined) {
        tasks = new TaskWatch(send, onEmpty);
        unlisten = await tasks.watch(this.#store, request.owner, taskIds, this.#maxTaskIds);
      }
      send('notifications/subscriptions/acknowledged', {
        notifications: tasks === undefined ? filter : { ...filter, taskIds: tasks.acknowledged() },
      });
      tasks?.start();
      // The stream keeps the filter without its task ids: tasks are routed by the store, not by this list.
      const stream: Stream = { filter, send, end };
      this.#streams.add(stream);
      if (this.#closed) end();
      await untilEndedOrAborted(ended, request.signal);
      this.#streams.delete(stream);
    } finally {
      unlisten?.();
    }
    return { resultType: 'complete', _meta: meta };
  }

  /** Ends every stream gracefully (each `listen` resolves with its result). */
  close(): void {
    this.#closed = true;
    for (const stream of this.#streams) stream.end();
  }
}

/** True when a stream asked for list or resource notifications, which never run out. */
function hasStandingSubscription(filter: ListenFilter): boolean {
  return (
    filter.toolsListChanged === true ||
    filter.promptsListChanged === true ||
    filter.resourcesListChanged === true ||
    (filter.resourceSubscriptions?.length ?? 0) > 0
  );
}

/** Resolves once `ended` resolves or `signal` (the request's own) aborts, leaving no listener behind. */
function untilEndedOrAborted(ended: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  let off!: () => void;
  const aborted = new Promise<void>((resolve) => {
    off = onAbort(signal, resolve);
  });
  return Promise.race([ended, aborted]).finally(off);
}
