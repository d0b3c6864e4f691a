/** The task record: one immutable, versioned snapshot of a task, and the types it is made of. */

import type { InputRequest, InputResponse, Error as JsonRpcError, TaskStatus } from '@mcp-tasks/protocol';
import type { TaskExecution } from './taskExecution.js';

/** An opaque JSON object (a `CallToolResult`, request metadata, …). Stored deep-frozen, never copied. */
export type JsonObject = { readonly [key: string]: unknown };

/** The JSON-RPC error object (wire `Error`) stored on a `failed` task. */
export type TaskError = JsonRpcError;

/** Who owns a task: the authenticated principal, or a fixed value for unauthenticated transports. */
export type TaskOwner = string;

/** The terminal statuses; a record in one of them never changes again. */
export type TerminalStatus = 'completed' | 'failed' | 'cancelled';

/** The worker that runs a task's tool, and until when (epoch ms) it has promised to be alive. */
export interface TaskLease {
  /** The id of the server instance (worker) running the tool. */
  readonly worker: string;
  /** Epoch milliseconds; past this the worker counts as lost unless it renewed the lease. */
  readonly until: number;
}

/**
 * One immutable, versioned snapshot of a task, deep-frozen and shared (never copy it to protect it). The wire
 * `DetailedTask` is derived from it by the server. Optional fields may be present with the value `undefined`.
 */
export interface TaskRecord {
  /** At least 128 random bits, base64url: safe in an `Mcp-Name` header. */
  readonly taskId: string;
  /** The principal the task belongs to: every read and write names it, and a task is invisible to other owners. */
  readonly owner: TaskOwner;
  /** Starts at 1 on creation; every change adds exactly 1. */
  readonly version: number;
  /** The current status; `completed`, `failed` and `cancelled` are terminal and never change again. */
  readonly status: TaskStatus;
  /** A human-readable note on the current status, if the tool or the store set one. */
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /**
   * ISO 8601; never goes backwards, and changes (or stays equal within one millisecond) with every change a client
   * can see. A lease renewal is invisible to clients and leaves it as it is.
   */
  readonly lastUpdatedAt: string;
  /** Lifetime from creation in ms; `null` = never expires. */
  readonly ttlMs: number | null;
  /** Suggested polling interval in ms, when one was set. */
  readonly pollIntervalMs?: number;
  /** Outstanding input requests by key. Non-empty exactly when status is `input_required`. */
  readonly inputRequests: { readonly [key: string]: InputRequest };
  /**
   * Accepted answers by key, kept with the record while the task is not terminal so that any process (the one
   * running the tool, or one resuming it) can read them; cleared when the task ends.
   */
  readonly answers: { readonly [key: string]: InputResponse };
  /** Present exactly when status is `completed`. */
  readonly result?: JsonObject;
  /** Present exactly when status is `failed`. */
  readonly error?: TaskError;
  /** Free-form metadata from the creating request (method, tool name, arguments…), deep-frozen. */
  readonly requestMeta?: JsonObject;
  /** Who runs the tool and until when; absent for tasks nobody runs, and cleared when the task ends. */
  readonly lease?: TaskLease;
  /** Present on durable tasks only (created with `durable: true`): where their work stands. */
  readonly execution?: TaskExecution;
}
