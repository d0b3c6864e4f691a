import { describe, expect, it } from 'vitest';
import { parseCliOptions, UsageError } from '../src/cliOptions.js';

describe('parseCliOptions', () => {
  it('defaults to http on 127.0.0.1, a free port, all tools, no token', () => {
    expect(parseCliOptions([], {})).toEqual({
      transport: 'http',
      host: '127.0.0.1',
      port: 0,
      tools: 'all',
      tokens: [],
      logLevel: 'info',
      console: false,
      store: { kind: 'memory' },
      maxTasksPerPrincipal: 10000,
      execution: { role: 'both', drainMs: 10_000 },
    });
  });

  it('reads every option', () => {
    const argv = ['--transport', 'ws', '--host', '::1', '--port', '8080', '--tools', 'demo', '--token', 's3cret'];
    expect(parseCliOptions([...argv, '--log-level', 'debug', '--console'])).toEqual({
      transport: 'ws',
      host: '::1',
      port: 8080,
      tools: 'demo',
      tokens: ['s3cret'],
      logLevel: 'debug',
      console: true,
      store: { kind: 'memory' },
      maxTasksPerPrincipal: 10000,
      execution: { role: 'both', drainMs: 10_000 },
    });
    expect(parseCliOptions(['--token', 'a', '--token', 'b'])).toMatchObject({ tokens: ['a', 'b'] });
    const execution = ['--role', 'worker', '--park-after-ms', '0', '--concurrency', '4', '--drain-ms', '2500'];
    expect(parseCliOptions(execution)).toMatchObject({
      execution: { role: 'worker', parkAfterMs: 0, concurrency: 4, drainMs: 2500 },
    });
    expect(parseCliOptions(['--help'])).toBe('help');
    expect(parseCliOptions(['-h'])).toBe('help');
  });

  it.each([
    [['--transport', 'tcp'], '--transport must be one of stdio, http, ws (got "tcp")'],
    [['--role', 'leader'], '--role must be one of front, worker, both (got "leader")'],
    [['--concurrency', '0'], '--concurrency must be an integer from 1 to 10000 (got "0")'],
    [['--drain-ms', '1.5'], '--drain-ms must be an integer from 0 to 3600000 (got "1.5")'],
    [['--tools', 'some'], '--tools must be one of demo, conformance, all (got "some")'],
    [['--port=-1'], '--port must be an integer from 0 to 65535 (got "-1")'],
    [['--port', '-1'], '--port needs a value; for one that starts with "-" write --port=<value>'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535 (got "70000")'],
    [['--port', '1.5'], '--port must be an integer from 0 to 65535 (got "1.5")'],
    [['--log-level', 'loud'], '--log-level must be one of debug, info, warn, error, silent (got "loud")'],
    [['--token', 'a b'], '--token must be non-empty printable ASCII without spaces'],
    [['--transport', 'stdio', '--token', 't'], /--token applies to http and ws only/],
    [['--token', 't', '--token', 't'], '--token given twice with the same value'],
    [['--transport', 'stdio', '--console'], /--console applies to http and ws only/],
    [
      ['--bogus'],
      /^unknown option --bogus; valid options: --transport, --host, --port, --tools, --token, --auth-issuer, --auth-resource, --auth-jwks, --auth-introspection, --auth-client-id, --log-level/,
    ],
    [['--transprot', 'ws'], /^unknown option --transprot \(did you mean --transport\?\); valid options: /],
    [['--log_level=debug'], /^unknown option --log_level \(did you mean --log-level\?\)/],
    [['-x'], /^unknown option -x; valid options: .*--help, --version$/],
    [['stray'], 'unexpected argument "stray": this command takes options only'],
    [['--port'], '--port needs a value'],
  ])('rejects %j with one readable line', (argv, message) => {
    let caught: unknown;
    try {
      parseCliOptions(argv);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const text = (caught as Error).message;
    expect(text).not.toContain('\n');
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
  });
});

describe('parseCliOptions --version', () => {
  it('returns "version" for --version and -V', () => {
    expect(parseCliOptions(['--version'])).toBe('version');
    expect(parseCliOptions(['-V'])).toBe('version');
  });
});

describe('parseCliOptions --store, --instance-id', () => {
  it('reads a postgres URL, embedded:DIR or memory, from --store or MCP_TASKS_STORE', () => {
    const url = 'postgres://u:p@db:5432/tasks';
    expect(parseCliOptions(['--store', url], {})).toMatchObject({ store: { kind: 'postgres', url } });
    expect(parseCliOptions([], { MCP_TASKS_STORE: url })).toMatchObject({ store: { kind: 'postgres', url } });
    expect(parseCliOptions(['--store', 'memory'], { MCP_TASKS_STORE: url })).toMatchObject({
      store: { kind: 'memory' },
    });
    expect(parseCliOptions(['--store', 'embedded:/var/tasks'], {})).toMatchObject({
      store: { kind: 'embedded', dataDir: '/var/tasks' },
    });
    expect(parseCliOptions(['--instance-id', 'node-1'], {})).toMatchObject({ instanceId: 'node-1' });
  });

  it('rejects an unknown store or a malformed instance id with a usage error', () => {
    expect(() => parseCliOptions(['--store', 'redis://x'], {})).toThrow(UsageError);
    expect(() => parseCliOptions(['--store', 'embedded:'], {})).toThrow(UsageError);
    expect(() => parseCliOptions(['--instance-id', 'has space'], {})).toThrow(UsageError);
  });
});

describe('parseCliOptions --lease-ms', () => {
  it('reads a lease in milliseconds, and leaves the runtime default when absent', () => {
    expect(parseCliOptions(['--lease-ms', '1500'], {})).toMatchObject({ leaseMs: 1500 });
    expect(parseCliOptions(['--max-tasks-per-principal', '5'], {})).toMatchObject({ maxTasksPerPrincipal: 5 });
    expect(parseCliOptions([], {})).toMatchObject({ maxTasksPerPrincipal: 10000 });
    expect(() => parseCliOptions(['--max-tasks-per-principal', '0'], {})).toThrow(
      '--max-tasks-per-principal must be an integer from 1 to 10000000 (got "0")',
    );
    expect(parseCliOptions([], {}).valueOf()).toMatchObject({ leaseMs: undefined });
  });

  it('rejects a lease that is not a whole number of milliseconds from 100 to a day', () => {
    for (const bad of ['abc', '1.5', '-5', '99', '86400001'])
      expect(() => parseCliOptions([`--lease-ms=${bad}`], {})).toThrow(/--lease-ms must be an integer/);
  });
});

describe('parseCliOptions --keep-finished-ms', () => {
  it('reads milliseconds or none, and leaves the runtime default when absent', () => {
    expect(parseCliOptions(['--keep-finished-ms', '60000'], {})).toMatchObject({ keepFinishedMs: 60000 });
    expect(parseCliOptions(['--keep-finished-ms=0'], {})).toMatchObject({ keepFinishedMs: 0 });
    expect(parseCliOptions(['--keep-finished-ms', 'none'], {})).toMatchObject({ keepFinishedMs: null });
    expect(parseCliOptions([], {})).toMatchObject({ keepFinishedMs: undefined });
  });

  it('rejects anything but a whole number of milliseconds up to a day, or none', () => {
    for (const bad of ['abc', '1.5', '-5', '86400001', ''])
      expect(() => parseCliOptions([`--keep-finished-ms=${bad}`], {})).toThrow(/--keep-finished-ms must be an integer/);
  });
});

describe('--auth-issuer', () => {
  it('parses the issuer, resource and key set, and refuses half or conflicting settings', () => {
    const auth = ['--auth-issuer', 'https://id.example', '--auth-resource', 'https://mcp.example/mcp'];
    expect(parseCliOptions(auth, {})).toMatchObject({
      auth: { issuer: 'https://id.example', resource: 'https://mcp.example/mcp', jwksUri: undefined },
    });
    expect(() => parseCliOptions(['--auth-issuer', 'https://id.example'], {})).toThrow(/go together/);
    expect(() => parseCliOptions([...auth, '--token', 'x'], {})).toThrow(/exclusive/);
    expect(() => parseCliOptions([...auth, '--transport', 'stdio'], {})).toThrow(/http and ws only/);
    expect(() => parseCliOptions([...auth, '--console'], {})).toThrow(/--auth-issuer and --console are exclusive/);
    expect(parseCliOptions([...auth, '--transport', 'ws'], {})).toMatchObject({
      auth: { issuer: 'https://id.example' },
    });
    expect(() => parseCliOptions(['--auth-issuer', 'nope', '--auth-resource', 'https://m/mcp'], {})).toThrow(
      /must be a URL/,
    );
  });

  it('takes introspection with a client id and the secret from the environment only', () => {
    const auth = ['--auth-issuer', 'https://id.example', '--auth-resource', 'https://mcp.example/mcp'];
    const introspect = [...auth, '--auth-introspection', 'https://id.example/introspect', '--auth-client-id', 'rs'];
    expect(parseCliOptions(introspect, { MCP_TASKS_AUTH_CLIENT_SECRET: 'shh' })).toMatchObject({
      auth: { introspection: { endpoint: 'https://id.example/introspect', clientId: 'rs', clientSecret: 'shh' } },
    });
    expect(() => parseCliOptions(introspect, {})).toThrow(/MCP_TASKS_AUTH_CLIENT_SECRET/);
    expect(() => parseCliOptions([...auth, '--auth-client-id', 'rs'], { MCP_TASKS_AUTH_CLIENT_SECRET: 's' })).toThrow(
      /needs --auth-client-id/,
    );
  });
});
