import type { InputRequest, InputResponse } from '@mcp-tasks/protocol';
import type { InputChannel, MrtrInfo } from './inputChannel.js';
import type { JsonObject } from './jsonRpc.js';
import { InputRequired } from './mrtr.js';

/** Marks the `requestState` of a round started by `ctx.elicit`/`sample`/`listRoots` in a synchronous call. */
const REPLAY = 'io.mcp-tasks/replay';

/** What a replayed round's signed state carries: every answer so far, and the keys the last round asked. */
interface ReplayState {
  readonly [REPLAY]: { readonly answers: Readonly<Record<string, JsonObject>>; readonly asked: readonly string[] };
}

function isReplayState(value: unknown): value is ReplayState {
  return typeof value === 'object' && value !== null && REPLAY in value;
}

/** Ends one synchronous run of a handler that asked a question not answered yet; the runtime answers MRTR. */
export class InputPending extends Error {
  override readonly name = 'InputPending';
  constructor() {
    super('The client has not answered yet: this run ends and the call answers input_required');
  }
}

/**
 * Input for a synchronous call, by MRTR replay: the n-th question a run asks has the key `ask-n`. A question
 * answered in an earlier round resolves at once with that answer; the first unanswered one rejects with
 * {@link InputPending}, which ends the run, and the call answers `input_required` with every question asked in it.
 * The client's retry runs the handler again from the start, replaying the answers (the signed `requestState`
 * carries them), so a handler must ask its questions in the same order for the same arguments.
 */
export class ReplayInputChannel implements InputChannel {
  readonly mode = 'sync' as const;
  readonly taskId = undefined;
  readonly attempt = 1;
  readonly #answers: Record<string, JsonObject>;
  readonly #pending: Record<string, InputRequest> = {};
  #asked = 0;

  constructor(mrtr: MrtrInfo) {
    const state = mrtr.requestState;
    this.#answers = {};
    if (isReplayState(state)) {
      Object.assign(this.#answers, state[REPLAY].answers);
      for (const key of state[REPLAY].asked) {
        const answer = mrtr.inputResponses[key];
        if (answer !== undefined) this.#answers[key] = answer;
      }
    }
  }

  /** The handler state of a round it started with `ctx.inputRequired` (replay rounds carry none). */
  static handlerState(requestState: unknown): unknown {
    return isReplayState(requestState) ? undefined : requestState;
  }

  async ask(request: InputRequest): Promise<InputResponse> {
    this.#asked += 1;
    const key = `ask-${this.#asked}`;
    const answer = this.#answers[key];
    if (answer !== undefined) return answer as InputResponse;
    this.#pending[key] = request;
    throw new InputPending();
  }

  async setStatus(): Promise<void> {}

  /** A synchronous call has no task to record steps in: the step just runs. */
  async step<T>(_name: string, run: (signal: AbortSignal) => T | Promise<T>, signal: AbortSignal): Promise<T> {
    return run(signal);
  }

  /** The `input_required` answer when the run asked an unanswered question, else undefined. */
  pendingInput(): InputRequired | undefined {
    const asked = Object.keys(this.#pending);
    if (asked.length === 0) return undefined;
    const state: ReplayState = { [REPLAY]: { answers: this.#answers, asked } };
    return new InputRequired({ inputRequests: this.#pending, state });
  }
}
