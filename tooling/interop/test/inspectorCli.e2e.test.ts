// The MCP Inspector CLI (pinned) against our tool server over Streamable HTTP, in its default era (2025-11-25:
// `initialize`, then a session) and pinned to 2026-07-28.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startToolServerHttp } from './helpers/toolServer.js';

const INSPECTOR = fileURLToPath(new URL('../node_modules/.bin/inspector', import.meta.url));

/** Runs one Inspector CLI command and parses the JSON it prints. */
function inspect(url: string, era: 'default' | 'modern', args: readonly string[]): Promise<Record<string, unknown>> {
  const eraArgs = era === 'modern' ? ['--protocol-era', 'modern'] : [];
  return new Promise((resolve, reject) => {
    execFile(
      INSPECTOR,
      ['--cli', ...eraArgs, url, ...args],
      { timeout: 60_000, killSignal: 'SIGKILL', maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) {
          reject(new Error(`inspector ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout) as Record<string, unknown>);
        } catch {
          reject(new Error(`inspector printed no JSON:\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}

let server: RunningHttpServer;
beforeAll(async () => {
  server = await startToolServerHttp('all');
});
afterAll(async () => {
  await server.close();
});

describe.each(['default', 'modern'] as const)('MCP Inspector CLI, %s era, over HTTP', (era) => {
  it('lists tools, including a task tool and its task support', async () => {
    const { tools } = (await inspect(server.url, era, ['--method', 'tools/list'])) as { tools: { name: string }[] };
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('greet');
    expect(names).toContain('slow_compute');
  });

  it('calls a plain tool', async () => {
    const result = await inspect(server.url, era, [
      '--method',
      'tools/call',
      '--tool-name',
      'greet',
      '--tool-arg',
      'name=Ada',
    ]);
    expect(JSON.stringify(result.content)).toContain('Hello, Ada!');
  });

  it('calls a task tool to its result', async () => {
    const result = await inspect(server.url, era, [
      '--method',
      'tools/call',
      '--tool-name',
      'slow_compute',
      '--tool-arg',
      'seconds=0',
    ]);
    expect(JSON.stringify(result.content)).toContain('Computed result after 0s');
  });

  it('lists and gets prompts, lists and reads resources', async () => {
    const { prompts } = (await inspect(server.url, era, ['--method', 'prompts/list'])) as {
      prompts: { name: string }[];
    };
    expect(prompts.map((prompt) => prompt.name)).toContain('test_simple_prompt');
    const prompt = await inspect(server.url, era, ['--method', 'prompts/get', '--prompt-name', 'test_simple_prompt']);
    expect(Array.isArray(prompt.messages)).toBe(true);
    const { resources } = (await inspect(server.url, era, ['--method', 'resources/list'])) as {
      resources: { uri: string }[];
    };
    expect(resources.map((resource) => resource.uri)).toContain('test://static-text');
    const read = await inspect(server.url, era, ['--method', 'resources/read', '--uri', 'test://static-text']);
    expect(JSON.stringify(read.contents)).toContain('static text resource');
  });
});
