import { ErrorCode, type InputRequest, ProtocolError } from '@mcp-tasks/protocol';
import type { TaskOperations, TaskRecord } from '@mcp-tasks/task-store';
import { checkInputAnswers } from '../inputAnswers.js';
import type { JsonObject } from '../jsonRpc.js';
import type { LegacyPeerAsk } from './legacyPeerAsk.js';
import type { LegacyResultStreams } from './legacyResultStreams.js';
import { withRelatedTask } from './legacyTaskWire.js';

/**
 * Where the answer to one stored question of a durable task goes. While the client holds the question as a request
 * of its session and the task is parked, this (with the session's pending request) is all that stays in memory.
 */
export interface StoredQuestion {
  readonly ops: TaskOperations;
  readonly owner: string;
  readonly taskId: string;
  /** The question's key in the task's `inputRequests`. */
  readonly key: string;
}

/**
 * Sends a durable task's stored question to the client through `ask` (with the related-task `_meta`), then checks
 * the answer against the question as the store holds it and resolves it into the store: that wakes a parked task,
 * whose next run (on any instance) reads the answer from the store. An answer to a question no longer open (answered
 * another way meanwhile) is dropped. Rejects like `ask`, or with `-32602` for a malformed answer (the question stays
 * open).
 */
export async function relayQuestion(
  question: StoredQuestion,
  request: InputRequest,
  ask: LegacyPeerAsk,
  signal: AbortSignal,
): Promise<void> {
  const params = withRelatedTask(request.params as JsonObject | undefined, question.taskId);
  return resolveAnswer(question, ask({ method: request.method, params }, signal));
}

async function resolveAnswer(question: StoredQuestion, reply: Promise<JsonObject>): Promise<void> {
  const answer = await reply;
  const { ops, owner, taskId, key } = question;
  const open = (await ops.get(owner, taskId))?.inputRequests[key];
  if (open === undefined) return;
  await ops.resolveInputs(owner, taskId, checkInputAnswers({ [key]: answer }, { [key]: open }));
}

/** What {@link relayStoredQuestions} needs. */
export interface StoredQuestionsDeps {
  readonly ops: TaskOperations;
  /** This instance's questions held by the client in its session (not sent again). */
  readonly streams?: LegacyResultStreams | undefined;
}

/** What {@link relayStoredQuestions} returns. */
export interface StoredQuestionsRelay {
  /**
   * Aborts when the `tasks/result`'s own signal does (with its reason), or when the client refused a relayed
   * question or answered it malformed (with a `-32603` naming the question): wait on this instead.
   */
  readonly signal: AbortSignal;
  /** Ends the relay (the requests still unanswered are abandoned); call it when the `tasks/result` ends. */
  stop(): void;
}

/**
 * While a `tasks/result` of a durable 2025-era task waits, sends the task's open questions as the store holds them
 * to the client through `ask` (that request's own stream, or the session): those of a parked task, and each one a
 * later run asks, on whichever instance it runs. Each question goes once per `tasks/result`, and none the client
 * already holds as a request of its session here. A refused or malformed answer leaves the question open and ends
 * the wait (`signal`): the client learns at once instead of waiting for an answer it will not give, and its next
 * `tasks/result` asks again.
 */
export function relayStoredQuestions(
  deps: StoredQuestionsDeps,
  record: TaskRecord,
  ask: LegacyPeerAsk,
  signal: AbortSignal,
): StoredQuestionsRelay {
  const { ops, streams } = deps;
  const { owner, taskId } = record;
  const sent = new Set<string>();
  // Ends the requests still unanswered when the `tasks/result` ends, however it ends.
  const local = new AbortController();
  // Ends the wait: the `tasks/result`'s signal, or a question the client would not answer.
  const wait = new AbortController();
  const follow = () => {
    local.abort(signal.reason);
    wait.abort(signal.reason);
  };
  signal.addEventListener('abort', follow, { once: true });
  const refused = (method: string, error: unknown) => {
    if (local.signal.aborted) return;
    const reason = error instanceof Error ? error.message : String(error);
    const message = `The client did not answer ${method} of task ${taskId}: ${reason}; the task still waits for it (call tasks/result again to be asked again)`;
    wait.abort(new ProtocolError(ErrorCode.InternalError, message));
  };
  const relay = (current: TaskRecord) => {
    for (const [key, request] of Object.entries(current.inputRequests)) {
      if (sent.has(key) || streams?.isPending(taskId, key) === true) continue;
      sent.add(key);
      relayQuestion({ ops, owner, taskId, key }, request, ask, local.signal).catch((error: unknown) =>
        refused(request.method, error),
      );
    }
  };
  const off = ops.listen(owner, taskId, (event) => {
    if (event.type !== 'expired') relay(event.record);
  });
  relay(record);
  return {
    signal: wait.signal,
    stop: () => {
      off();
      signal.removeEventListener('abort', follow);
      local.abort(new Error('tasks/result ended'));
    },
  };
}
