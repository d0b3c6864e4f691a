import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';

let server: McpServer | undefined;
afterEach(async () => server?.close());

const handler = () => ({ content: [] });

describe('requiredScopes', () => {
  it('A-S6: toolRequiredScopes answers a tool’s scopes, none for others and for unknown tools', () => {
    server = new McpServer({ serverInfo: { name: 's', version: '1' } })
      .tool({ name: 'deploy', description: 'd', requiredScopes: ['deploy', 'tasks:write'], handler })
      .tool({ name: 'open', description: 'o', handler });
    const { toolRequiredScopes } = server;
    expect(toolRequiredScopes('deploy')).toEqual(['deploy', 'tasks:write']);
    expect(toolRequiredScopes('open')).toEqual([]);
    expect(toolRequiredScopes('missing')).toEqual([]);
  });

  it('refuses a registration whose scope is not an RFC 6749 scope token', () => {
    server = new McpServer({ serverInfo: { name: 's', version: '1' } });
    for (const bad of ['two words', 'quo"te', 'back\\slash', ''])
      expect(() => server?.tool({ name: 't', description: 'd', requiredScopes: [bad], handler })).toThrow(
        /is not an OAuth scope/,
      );
  });
});
