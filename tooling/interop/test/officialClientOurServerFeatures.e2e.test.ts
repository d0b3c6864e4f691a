// The official client against our tool server, beyond the basics: MRTR rounds answered by the SDK's own
// elicitation auto-fulfilment (with signed requestState across rounds), progress over SSE, x-mcp-header mirroring,
// completion, resource templates, binary resources and the unknown-resource error.
import { type Client, ProtocolError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ELICITED_NAME } from './helpers/officialClient.js';
import { OFFICIAL_TARGETS, type OfficialTarget } from './helpers/officialClientTargets.js';

describe.each(OFFICIAL_TARGETS)('official client -> our tool server features over %s', (transport, startTarget) => {
  let target: OfficialTarget;
  let client: Client;
  beforeAll(async () => {
    target = await startTarget('conformance');
    client = await target.connect({ answerElicitation: true });
  });
  afterAll(() => target?.close());

  it('completes an MRTR elicitation round through the SDK auto-fulfilment', async () => {
    const result = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: `Hello, ${ELICITED_NAME}!` }]);
  });

  it('echoes our signed requestState byte-identically over two rounds', async () => {
    const result = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Completed after 2 rounds' }]);
  });

  it('receives progress notifications 0, 50, 100 before the result', async () => {
    // Official-SDK race (2.4.0, stdio): Protocol._onnotification defers handlers to a microtask while _onresponse
    // deletes the progress handler synchronously, so progress read in the same chunk as the response is reported
    // to onerror ("unknown token") instead of onprogress. Count those too: together they must be ours, in order.
    const delivered: number[] = [];
    const dropped: number[] = [];
    const previous = client.onerror;
    client.onerror = (error) => {
      const match = /progress notification for an unknown token: (.*)$/s.exec(error.message);
      if (match?.[1] === undefined) return previous?.(error);
      dropped.push((JSON.parse(match[1]) as { params: { progress: number } }).params.progress);
    };
    try {
      const result = await client.callTool(
        { name: 'test_tool_with_progress', arguments: {} },
        { onprogress: (update) => delivered.push(update.progress) },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'Progress test completed' }]);
      // The race only drops the tail; dropped reports arrive synchronously, before callTool resolves.
      expect([...delivered, ...dropped]).toEqual([0, 50, 100]);
      if (transport !== 'stdio') expect(dropped).toEqual([]);
    } finally {
      client.onerror = previous;
    }
  });

  it('calls a tool with an x-mcp-header argument (mirrored as Mcp-Param-Region over HTTP)', async () => {
    await client.listTools();
    const result = await client.callTool({ name: 'test_x_mcp_header', arguments: { region: 'eu-west 1', level: 2 } });
    expect(result.content).toEqual([{ type: 'text', text: 'region=eu-west 1 level=2' }]);
  });

  it('completes a prompt argument', async () => {
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(completion.values).toEqual(['paris', 'park', 'party']);
  });

  it('reads a templated and a binary resource', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain('test://template/{id}/data');
    const templated = await client.readResource({ uri: 'test://template/123/data' });
    const first = templated.contents[0];
    expect(first && 'text' in first ? JSON.parse(first.text) : undefined).toMatchObject({ id: '123' });
    const binary = await client.readResource({ uri: 'test://static-binary' });
    expect(binary.contents[0]).toMatchObject({ mimeType: 'image/png', blob: expect.any(String) });
  });

  it('gets -32602 with data.uri for an unknown resource', async () => {
    const error = await client.readResource({ uri: 'test://nope' }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, data: { uri: 'test://nope' } });
  });
});
