import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TerminalForm } from '../src/terminalForm.js';

const params = {
  message: 'Deploy web@1.0?',
  requestedSchema: {
    type: 'object' as const,
    properties: {
      confirm: { type: 'boolean' as const, title: 'Deploy now?' },
      replicas: { type: 'integer' as const, minimum: 1, default: 2 },
      region: {
        type: 'string' as const,
        oneOf: [
          { const: 'eu', title: 'Europe' },
          { const: 'us', title: 'America' },
        ],
      },
      note: { type: 'string' as const },
    },
    required: ['confirm', 'region'],
  },
};

/** A form whose input is fed line by line as each prompt appears. */
function scripted(lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    // Answer each prompt (they end with ": ") with the next scripted line.
    if (shown.endsWith(': ') && lines.length > 0) input.write(`${lines.shift()}\n`);
  });
  return { form: new TerminalForm(input, output), input, text: () => shown };
}

describe('TerminalForm', () => {
  it('asks each field with its type, re-asks invalid or missing required answers, and applies defaults', async () => {
    const { form, text } = scripted(['', 'maybe', 'y', '', '', '3', '1', 'fast rollout']);
    const result = await form.ask(params, new AbortController().signal);
    expect(result).toEqual({
      action: 'accept',
      content: { confirm: true, replicas: 2, region: 'eu', note: 'fast rollout' },
    });
    // '' accepts the form; 'maybe' is re-asked; '' takes the default; '' for required region is refused; '3' is no choice, '1' is Europe.
    expect(text()).toContain('? Deploy web@1.0?');
    expect(text()).toContain('answer y or n');
    expect(text()).toContain('This field is required.');
    expect(text()).toContain('1) Europe (eu)');
  });

  it('returns decline or cancel without asking the fields', async () => {
    expect(await scripted(['d']).form.ask(params, new AbortController().signal)).toEqual({ action: 'decline' });
    expect(await scripted(['cancel']).form.ask(params, new AbortController().signal)).toEqual({ action: 'cancel' });
  });

  it('rejects when the input ends, so the client answers cancel', async () => {
    const { form, input } = scripted([]);
    const asked = form.ask(params, new AbortController().signal);
    input.end();
    await expect(asked).rejects.toThrow();
  });

  it('says what is valid when the accept / decline / cancel answer is not one of them', async () => {
    const { form, text } = scripted(['x', 'd']);
    await expect(form.ask(params, new AbortController().signal)).resolves.toEqual({ action: 'decline' });
    expect(text()).toContain('"x" is not a choice: type a (accept), d (decline) or c (cancel).');
  });
});
