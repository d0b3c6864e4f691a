import type { InputRequest } from '@mcp-tasks/protocol';
import { InputRequired, type ToolContext } from '@mcp-tasks/server';

/**
 * Asks the client one question in whichever way the call runs.
 *
 * - As a task: through the task itself (`input_required` on `tasks/get`, answered with `tasks/update`); resolves
 *   with the answer and the work continues where it was.
 * - Synchronously: as an MRTR round. The first call resolves with an {@link InputRequired} the handler must return
 *   (carrying `state`, which the runtime signs into `requestState`); the retry re-runs the handler with the answer
 *   under `key` and the verified state in `ctx.requestState`, so the handler can skip the work it already did.
 */
export async function askClient(
  ctx: ToolContext,
  key: string,
  request: InputRequest,
  state: unknown,
): Promise<Readonly<Record<string, unknown>> | InputRequired> {
  if (ctx.taskId !== undefined) {
    switch (request.method) {
      case 'elicitation/create':
        return ctx.elicit(request.params);
      case 'sampling/createMessage':
        return ctx.sample(request.params);
      default:
        return ctx.listRoots();
    }
  }
  const answer = ctx.inputResponses[key];
  // An answer without our state belongs to no round we started: ask again.
  if (answer !== undefined && ctx.requestState !== undefined) return answer;
  return ctx.inputRequired({ inputRequests: { [key]: request }, state });
}

/** True for the marker {@link askClient} returns on the first round of a synchronous call. */
export function isInputRequired(value: unknown): value is InputRequired {
  return value instanceof InputRequired;
}
