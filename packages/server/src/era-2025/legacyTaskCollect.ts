import { ErrorCode, ProtocolError } from '@mcp-tasks/protocol';
import { missingCapabilityFor } from '../capabilities.js';
import { missingCapability } from '../errors.js';
import { checkInputAnswers } from '../inputAnswers.js';
import type { JsonObject } from '../jsonRpc.js';
import { InputRequired } from '../mrtr.js';
import { createHandlerContext, type MrtrInfo, type RequestScope, runInContext } from '../toolContext.js';
import type { RegisteredTool } from '../toolRegistry.js';
import type { LegacyPeerAsk } from './legacyPeerAsk.js';

/** Most rounds a `collectInput` phase may ask before the call fails (a phase that never proceeds). */
const MAX_ROUNDS = 16;

/**
 * Runs a tool's `collectInput` phase for a 2025-era call, which has no MRTR: each round's questions go to the
 * client as plain requests (no task exists yet), and the phase runs again with their answers and its state, until
 * it proceeds. Resolves with what the handler then sees as `ctx.inputResponses` and `ctx.requestState`. A question
 * needing a capability the client did not declare is `-32021`; a refused request or malformed answer rejects.
 */
export async function collectInputFromPeer(
  tool: RegisteredTool,
  args: unknown,
  scope: Omit<RequestScope, 'mrtr'>,
  ask: LegacyPeerAsk,
): Promise<MrtrInfo> {
  let mrtr: MrtrInfo = { inputResponses: {}, requestState: undefined };
  const collect = tool.definition.collectInput;
  if (collect === undefined) return mrtr;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const marker = await runInContext(createHandlerContext({ ...scope, mrtr }), (ctx) =>
      collect(args as JsonObject, ctx),
    );
    if (!(marker instanceof InputRequired)) return mrtr;
    const answers: Record<string, JsonObject> = {};
    for (const [key, request] of Object.entries(marker.inputRequests ?? {})) {
      const need = missingCapabilityFor(request, scope.envelope.clientCapabilities);
      if (need !== undefined) throw missingCapability(need, `The client did not declare ${Object.keys(need)[0]}`);
      const answer = await ask({ method: request.method, params: request.params }, scope.abort.signal);
      Object.assign(answers, checkInputAnswers({ [key]: answer }, { [key]: request }));
    }
    mrtr = { inputResponses: answers, requestState: marker.state };
  }
  throw new ProtocolError(ErrorCode.InternalError, `Tool ${tool.definition.name} kept asking for input`);
}
