import type { InputRequest } from '@mcp-tasks/protocol';
import type { HandlerContext, McpServer, ToolResult } from '@mcp-tasks/server';
import { ASK_CAPITAL, ASK_NAME, acceptedContent, elicitForm, LIST_ROOTS, sampledText } from './inputRequests.js';

const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] });
const CONFIRM = elicitForm('Please confirm to continue', { ok: { type: 'boolean' } }, ['ok']);

/**
 * One MRTR round over a fixed set of keys: asks for every key not yet answered (with `state`, signed by the runtime
 * into `requestState`), or returns undefined once all are answered. With `needsState`, answers count only when the
 * retry also carried a verified `requestState`; a retry without one starts over.
 */
function missingInputs(
  ctx: HandlerContext,
  requests: Record<string, InputRequest>,
  state?: unknown,
  needsState = state !== undefined,
) {
  const stateOk = !needsState || ctx.requestState !== undefined;
  const missing = Object.entries(requests).filter(([key]) => !stateOk || ctx.inputResponses[key] === undefined);
  if (missing.length === 0) return undefined;
  return ctx.inputRequired({ inputRequests: Object.fromEntries(missing), state });
}

/**
 * Registers the MRTR tools of the fixture (CONFORMANCE.md 6.3 rows 12–19, conventions in 6.5), in order. Every
 * tool re-requests what is still missing rather than failing, so a retry with the wrong key gets asked again;
 * malformed answers and tampered states are rejected by the runtime (-32602) before these handlers run.
 */
export function registerMrtrConformanceTools(server: McpServer): void {
  server
    .tool({
      name: 'test_input_required_result_elicitation',
      description: 'Asks for the user name through an elicitation input request (key user_name)',
      handler: (_args, ctx) => {
        const ask = missingInputs(ctx, { user_name: ASK_NAME });
        if (ask) return ask;
        const name = acceptedContent(ctx.inputResponses.user_name)?.name;
        return text(`Hello, ${typeof name === 'string' ? name : 'anonymous'}!`);
      },
    })
    .tool({
      name: 'test_input_required_result_sampling',
      description: 'Asks the client model a question through a sampling input request (key capital_question)',
      handler: (_args, ctx) =>
        missingInputs(ctx, { capital_question: ASK_CAPITAL }) ??
        text(`The model answered: ${sampledText(ctx.inputResponses.capital_question) ?? '(no text)'}`),
    })
    .tool({
      name: 'test_input_required_result_list_roots',
      description: 'Asks for the client roots through a roots/list input request (key client_roots)',
      handler: (_args, ctx) => {
        const ask = missingInputs(ctx, { client_roots: LIST_ROOTS });
        if (ask) return ask;
        const roots = ctx.inputResponses.client_roots?.roots;
        return text(`Client has ${Array.isArray(roots) ? roots.length : 0} root(s)`);
      },
    })
    .tool({
      name: 'test_input_required_result_request_state',
      description: 'Asks for confirmation and carries a signed requestState across the round',
      handler: (_args, ctx) =>
        missingInputs(ctx, { confirm: CONFIRM }, { tool: 'request_state', round: 1 }) ??
        text(`state-ok: ${JSON.stringify(ctx.requestState)}`),
    })
    .tool({
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks for an elicitation, a sampling and a roots answer in one round',
      handler: (_args, ctx) =>
        missingInputs(
          ctx,
          { user_name: ASK_NAME, greeting: ASK_CAPITAL, client_roots: LIST_ROOTS },
          { tool: 'multiple_inputs' },
        ) ?? text('Received all three inputs'),
    })
    .tool({
      name: 'test_input_required_result_multi_round',
      description: 'Needs two input rounds, each with a fresh signed requestState',
      handler: (_args, ctx) => {
        const state = ctx.requestState as { round?: number } | undefined;
        if (state?.round === 2 && ctx.inputResponses.step2 !== undefined) return text('Completed after 2 rounds');
        if ((state?.round === 1 || state?.round === 2) && ctx.inputResponses.step1 !== undefined) {
          const step2 = elicitForm('Step 2: confirm', { ok: { type: 'boolean' } }, ['ok']);
          return ctx.inputRequired({ inputRequests: { step2 }, state: { round: 2, nonce: crypto.randomUUID() } });
        }
        const step1 = elicitForm('Step 1: your name?', { name: { type: 'string' } }, ['name']);
        return ctx.inputRequired({ inputRequests: { step1 }, state: { round: 1, nonce: crypto.randomUUID() } });
      },
    })
    .tool({
      name: 'test_input_required_result_tampered_state',
      description: 'Carries a signed requestState; a tampered state is rejected with -32602',
      handler: (_args, ctx) =>
        missingInputs(ctx, { confirm: CONFIRM }, { tool: 'tampered_state' }) ?? text('requestState verified'),
    })
    .tool({
      name: 'test_input_required_result_capabilities',
      description: "Asks only for the input kinds this request's clientCapabilities declare",
      handler: (_args, ctx) => {
        const requests: Record<string, InputRequest> = {};
        if (ctx.canRequest('elicitation')) requests.user_name = ASK_NAME;
        if (ctx.canRequest('sampling')) requests.capital_question = ASK_CAPITAL;
        if (ctx.canRequest('roots')) requests.client_roots = LIST_ROOTS;
        // Never an empty inputRequests map: with nothing declared there is nothing to ask.
        if (Object.keys(requests).length === 0) return text('The client declared no input capabilities');
        return missingInputs(ctx, requests, { tool: 'capabilities' }) ?? text('Received every declared input');
      },
    });
}
