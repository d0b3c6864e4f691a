import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cliArgs.js';
import { UsageError } from '../src/cliErrors.js';
import { splitCommandLine } from '../src/openTransport.js';

describe('parseCliArgs', () => {
  it('parses call with a URL, JSON args, answers, detach and journal', () => {
    const command = parseCliArgs([
      'call',
      'deploy',
      '--url',
      'http://127.0.0.1:3000/mcp',
      '--args',
      '{"env":"staging"}',
      '--answers',
      'a.json',
      '--detach',
      '--journal',
      'j.json',
      '--root',
      'file:///tmp',
    ]);
    expect(command).toMatchObject({
      name: 'call',
      tool: 'deploy',
      args: { env: 'staging' },
      detach: true,
      options: {
        server: { kind: 'url', url: 'http://127.0.0.1:3000/mcp' },
        answers: 'a.json',
        journal: 'j.json',
        roots: ['file:///tmp'],
      },
    });
  });

  it('accepts ws URLs and stdio command lines', () => {
    expect(parseCliArgs(['tools', '--url', 'ws://h/mcp'])).toMatchObject({ options: { server: { kind: 'url' } } });
    expect(parseCliArgs(['tools', '--stdio', 'node server.js'])).toMatchObject({
      options: { server: { kind: 'stdio', command: 'node server.js' } },
    });
  });

  it('lets resume, status and cancel take the server from the journal later', () => {
    expect(parseCliArgs(['resume', 'abc'])).toMatchObject({
      name: 'resume',
      taskId: 'abc',
      options: { server: undefined },
    });
    expect(parseCliArgs(['pending'])).toMatchObject({ name: 'pending', refresh: false });
    expect(parseCliArgs(['pending', '--refresh'])).toMatchObject({ name: 'pending', refresh: true });
  });

  it.each([
    [['status', '-wXc9_q', '--url', 'http://h/mcp']],
    [['status', '--url', 'http://h/mcp', '-wXc9_q']],
    [['status', '--url=http://h/mcp', '-wXc9_q', '--json']],
    [['status', '--url', 'http://h/mcp', '--', '-wXc9_q']],
  ])('takes a task id that starts with "-" as the id: %j', (argv) => {
    expect(parseCliArgs(argv)).toMatchObject({
      name: 'status',
      taskId: '-wXc9_q',
    });
    for (const name of ['resume', 'cancel'])
      expect(parseCliArgs([name, '-hV', '--url', 'http://h/mcp'])).toMatchObject({ name, taskId: '-hV' });
  });

  it('prints --version and per-command --help, and returns "printed"', () => {
    let out = '';
    const output = {
      out: (text: string) => {
        out += text;
      },
    };
    expect(parseCliArgs(['--version'], '1.2.3', output)).toEqual({ name: 'printed' });
    expect(out).toBe('1.2.3\n');
    out = '';
    expect(parseCliArgs(['call', '--help'], '1.2.3', output)).toEqual({ name: 'printed' });
    expect(out).toMatch(/Usage: mcp-tasks-polling-client call \[options\] <tool>/);
    expect(out).toMatch(/--non-interactive <action>/);
  });

  it('with no command, shows the overview on the error output and fails as a usage error', () => {
    let out = '';
    let err = '';
    const output = { out: (text: string) => (out += text), err: (text: string) => (err += text) };
    expect(() => parseCliArgs([], '1.2.3', output)).toThrow(new UsageError('a command is required'));
    expect(err).toMatch(/Usage: mcp-tasks-polling-client \[options\] \[command\][\s\S]*pending/);
    expect(out).toBe('');
  });

  it('reads timeouts in seconds and the non-interactive answer', () => {
    expect(
      parseCliArgs([
        'call',
        'x',
        '--url',
        'http://h/mcp',
        '--connect-timeout',
        '2.5',
        '--retry-for',
        '0',
        '--non-interactive',
        'decline',
      ]),
    ).toMatchObject({ options: { connectTimeoutMs: 2500, retryForMs: 0, nonInteractive: 'decline' } });
    expect(parseCliArgs(['call', 'x', '--url', 'http://h/mcp'])).toMatchObject({
      options: { connectTimeoutMs: 10_000, retryForMs: 30_000, nonInteractive: undefined },
    });
  });

  it('pins the protocol with --protocol; detects it by default', () => {
    expect(parseCliArgs(['tools', '--url', 'http://h/mcp', '--protocol', '2025-11-25'])).toMatchObject({
      options: { protocol: '2025-11-25' },
    });
    expect(parseCliArgs(['call', 'x', '--stdio', 'srv', '--protocol', '2026-07-28'])).toMatchObject({
      options: { protocol: '2026-07-28' },
    });
    expect(parseCliArgs(['tools', '--url', 'http://h/mcp'])).toMatchObject({ options: { protocol: undefined } });
    expect(() => parseCliArgs(['tools', '--url', 'http://h/mcp', '--protocol', '2024-11-05'])).toThrow(
      /--protocol.*2024-11-05.*2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26/,
    );
  });

  it('names an unknown command in one line, with a suggestion', () => {
    expect(() => parseCliArgs(['stauts'])).toThrow(/unknown command 'stauts'.*Did you mean status\?/s);
  });

  it('takes the last argument as the conformance URL', () => {
    expect(parseCliArgs(['conformance', 'http://localhost:1/mcp'])).toEqual({
      name: 'conformance',
      url: 'http://localhost:1/mcp',
    });
  });

  it.each([
    [['call']],
    [['call', 'x']],
    [['call', 'x', '--url', 'ftp://h']],
    [['call', 'x', '--url', 'http://h', '--stdio', 'y']],
    [['call', 'x', '--url', 'http://h', '--args', '[1]']],
    [['call', 'x', '--url', 'http://h', '--args', '{']],
    [['frobnicate']],
    [['tools', '--url', 'http://h', '--bogus']],
    [['status', 'a', 'b']],
    [['call', 'x', '--url', 'http://h', '--non-interactive', 'accept']],
    [['call', 'x', '--url', 'http://h', '--retry-for', 'soon']],
    [[]],
  ])('rejects %j as a usage error', (argv) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
  });
});

describe('splitCommandLine', () => {
  it('splits on whitespace and honours quotes and escapes', () => {
    expect(splitCommandLine(`node "my server.js" --name 'a b' x\\ y ""`)).toEqual([
      'node',
      'my server.js',
      '--name',
      'a b',
      'x y',
      '',
    ]);
  });

  it('rejects an unterminated quote', () => {
    expect(() => splitCommandLine('node "oops')).toThrow(UsageError);
  });
});
