import type { InputRequest, InputResponse } from '@mcp-tasks/protocol';
import type { TaskOperations } from '@mcp-tasks/task-store';
import { checkInputAnswers } from '../inputAnswers.js';
import type { JsonObject } from '../jsonRpc.js';
import { isTaskAbort } from '../taskAbort.js';
import type { InputChannel, ToolMode } from '../toolContext.js';
import type { LegacyPeerAsk } from './legacyPeerAsk.js';
import type { LegacyResultStreams } from './legacyResultStreams.js';
import { relayQuestion, type StoredQuestion } from './legacyStoredQuestions.js';
import { withRelatedTask } from './legacyTaskWire.js';

/** What a {@link LegacyTaskInput} needs. */
export interface LegacyTaskInputOptions {
  readonly ops: TaskOperations;
  readonly owner: string;
  /** The task's own channel (the supervisor's): status messages go through it. */
  readonly inner: InputChannel;
  readonly taskId: string;
  readonly ask: LegacyPeerAsk;
  /** The tool's signal: aborting it abandons the pending client request and withdraws its input request. */
  readonly signal: AbortSignal;
  /** Most questions outstanding at once. */
  readonly maxInputRequests: number;
  /** Waiting `tasks/result` requests: a question goes on the newest one's stream when there is one. */
  readonly streams?: LegacyResultStreams | undefined;
}

/**
 * The input channel of a tool running as a 2025-11-25 task. Each question is written to the task first (it moves
 * to `input_required` and lists the question, so a 2026-07-28 `tasks/get` of the same task sees it), then sent to
 * the client as a real request carrying the related-task `_meta`. The client's answer is checked against the
 * method's result schema and delivered to the task (back to `working` once no question is outstanding); an answer
 * given another way (a 2026-07-28 `tasks/update`) counts as well, whichever comes first.
 */
export class LegacyTaskInput implements InputChannel {
  readonly #options: LegacyTaskInputOptions;
  #outstanding = 0;

  constructor(options: LegacyTaskInputOptions) {
    this.#options = options;
  }

  get mode(): ToolMode {
    return this.#options.inner.mode;
  }

  get taskId(): string {
    return this.#options.taskId;
  }

  get attempt(): number {
    return this.#options.inner.attempt;
  }

  /** Runs a step through the task's channel: recorded and replayed when the task runs durably. */
  step<T>(name: string, run: (signal: AbortSignal) => T | Promise<T>, signal: AbortSignal): Promise<T> {
    return this.#options.inner.step(name, run, signal);
  }

  setStatus(message: string): Promise<void> {
    return this.#options.inner.setStatus(message);
  }

  async ask(request: InputRequest): Promise<InputResponse> {
    const { ops, owner, taskId, signal, maxInputRequests } = this.#options;
    if (this.#outstanding >= maxInputRequests) {
      throw new Error(`Too many outstanding input requests (limit ${maxInputRequests})`);
    }
    this.#outstanding += 1;
    try {
      const issued = await ops.requestInput(owner, taskId, request);
      if (!issued.ok) throw new Error('The task has ended');
      const durable = this.#options.inner.awaitDurable?.(issued.key);
      if (durable !== undefined) return await this.#askDurably(issued.key, request, durable);
      const answered = ops.waitForInput(owner, taskId, issued.key, signal);
      const forwarded = this.#forward(issued.key, request);
      try {
        // Promise.race subscribes to both, so the one that settles second is never an unhandled rejection.
        return await Promise.race([answered, forwarded.then(() => answered)]);
      } catch (error) {
        await ops.withdrawInput(owner, taskId, issued.key).catch(() => undefined);
        throw error;
      }
    } finally {
      this.#outstanding -= 1;
    }
  }

  /**
   * A durable task's question: a `tasks/result` of the task waiting here relays it from the store on its own stream;
   * otherwise it goes to the client as a request of its session, which outlives a park of the task (see
   * {@link askSurvivingPark}). A refusal or malformed answer before the park reaches the tool like
   * {@link #forward}'s; a parked task keeps its question open.
   */
  async #askDurably(key: string, request: InputRequest, answered: Promise<InputResponse>): Promise<InputResponse> {
    const { ops, owner, taskId, ask, signal, streams } = this.#options;
    if (streams?.waiting(taskId) === true) return answered;
    // The client's refusal fails the wait, but only while it lasts: the request's chain, which lives as long as the
    // client holds the question, must not keep this wait's outcome (after a park, an abort error) reachable.
    let refuse: ((error: unknown) => void) | undefined;
    const refused = new Promise<never>((_resolve, reject) => {
      refuse = reject;
    });
    askSurvivingPark({ ops, owner, taskId, key }, request, ask, signal, streams).catch((error: unknown) =>
      refuse?.(error),
    );
    try {
      return await Promise.race([answered, refused]);
    } catch (error) {
      if (!isTaskAbort(signal.reason, 'parked')) await ops.withdrawInput(owner, taskId, key).catch(() => undefined);
      throw error;
    } finally {
      refuse = undefined;
    }
  }

  /**
   * Sends the question to the client and delivers its checked answer to the task. A refused request or a malformed
   * answer reaches the tool as a plain `Error` (left uncaught, an `isError` result), never as a protocol error of
   * the task's own: the client's error code says nothing about the tool call.
   */
  async #forward(key: string, request: InputRequest): Promise<void> {
    const { ops, owner, taskId, ask, signal } = this.#options;
    const params = withRelatedTask(request.params as JsonObject | undefined, taskId);
    let answers: Record<string, InputResponse>;
    try {
      const outbound = { method: request.method, params };
      const { streams } = this.#options;
      const answer = await (streams === undefined ? ask(outbound, signal) : streams.ask(taskId, ask, outbound, signal));
      answers = checkInputAnswers({ [key]: answer }, { [key]: request });
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`The client did not answer ${request.method}: ${reason}`, { cause: error });
    }
    await ops.resolveInputs(owner, taskId, answers);
  }
}

/**
 * Sends a durable task's question to the client in its session (marked pending in `streams` meanwhile) and resolves
 * the answer into the store. The request is abandoned when the tool's signal aborts, except by a park: the client's
 * late answer then still reaches the store and wakes the task. What the pending request keeps in memory is the
 * session's own pending entry and a {@link StoredQuestion}, never the call.
 */
function askSurvivingPark(
  question: StoredQuestion,
  request: InputRequest,
  ask: LegacyPeerAsk,
  signal: AbortSignal,
  streams: LegacyResultStreams | undefined,
): Promise<void> {
  const peer = abortUnlessParked(signal);
  const release = streams?.pending(question.taskId, question.key);
  const { method } = request;
  return relayQuestion(question, request, ask, peer.signal)
    .catch((error: unknown) => {
      if (peer.signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`The client did not answer ${method}: ${reason}`, { cause: error });
    })
    .finally(release);
}

/** A signal that aborts with `signal`, unless that is a park. Made apart so the request's closures keep no call. */
function abortUnlessParked(signal: AbortSignal): AbortController {
  const peer = new AbortController();
  const follow = () => {
    if (!isTaskAbort(signal.reason, 'parked')) peer.abort(signal.reason);
  };
  signal.addEventListener('abort', follow, { once: true });
  return peer;
}
