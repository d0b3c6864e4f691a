import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import type { ElicitRequest, PrimitiveSchemaDefinition } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { TerminalForm } from '../src/terminalForm.js';

const params = {
  message: 'Deploy web@1.0?',
  requestedSchema: {
    type: 'object' as const,
    properties: {
      confirm: { type: 'boolean' as const, title: 'Deploy now?' },
      replicas: { type: 'integer' as const, minimum: 1, maximum: 9, default: 2 },
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

/** A form with `properties`, asking `message`. */
function form(
  message: string,
  properties: Record<string, PrimitiveSchemaDefinition>,
  required: string[],
): ElicitRequest['params'] {
  return { message, requestedSchema: { type: 'object', properties, required } };
}

const ENTER = '\r';
const DOWN = '\x1b[B';
const SPACE = ' ';

/** A form on in-memory streams: `press` waits until the screen shows `shown`, then types `keys`. */
function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = '';
  let seen = 0;
  output.on('data', (chunk: Buffer) => {
    screen += stripVTControlCharacters(chunk.toString());
  });
  const interrupt = vi.fn();
  return {
    form: new TerminalForm(input, output, { interrupt }),
    input,
    interrupt,
    screen: () => screen,
    /** Waits for `shown` to appear after what earlier steps waited for, then types `keys`. */
    async press(shown: string, keys: string): Promise<void> {
      await vi.waitFor(() => expect(screen.indexOf(shown, seen)).toBeGreaterThanOrEqual(0));
      seen = screen.indexOf(shown, seen) + shown.length;
      input.write(keys);
    },
  };
}

describe('TerminalForm', () => {
  it('asks each field with its prompt kind, refuses invalid answers with the reason, and applies defaults', async () => {
    const t = terminal();
    const asked = t.form.ask(params, new AbortController().signal);
    await t.press('Deploy web@1.0?', ENTER); // Accept is the default choice.
    await t.press('Deploy now? (required)', 'y');
    await t.press('replicas', `12${ENTER}`);
    await t.press('must be ≤ 9', '\x7f\x7f'); // Backspace twice: empty takes the default.
    await t.press('2 (default; a whole number from 1 to 9)', ENTER);
    await t.press('Europe', `${DOWN}${ENTER}`);
    await t.press('note', `fast rollout${ENTER}`);
    expect(await asked).toEqual({
      action: 'accept',
      content: { confirm: true, replicas: 2, region: 'us', note: 'fast rollout' },
    });
    expect(t.screen()).toContain('(eu)');
  });

  it('refuses an empty required text field, checks formats, and leaves optional fields out', async () => {
    const t = terminal();
    const asked = t.form.ask(
      form(
        'Contact?',
        {
          email: { type: 'string', format: 'email' },
          day: { type: 'string', format: 'date' },
          tier: { type: 'string', enum: ['free', 'pro'] },
        },
        ['email'],
      ),
      new AbortController().signal,
    );
    await t.press('Contact?', ENTER);
    await t.press('email (required)', ENTER);
    await t.press('This field is required.', `nobody${ENTER}`);
    await t.press('expected an email address', `${'\x7f'.repeat(6)}a@b.io${ENTER}`);
    await t.press('day', `2025-02-30${ENTER}`);
    await t.press('expected a date (YYYY-MM-DD)', `${'\x7f'.repeat(10)}${ENTER}`);
    await t.press('tier', `${DOWN}${DOWN}${ENTER}`); // Past free and pro to "(leave empty)".
    expect(await asked).toEqual({ action: 'accept', content: { email: 'a@b.io' } });
  });

  it('picks several values in a multi-select and re-asks when the pick breaks maxItems', async () => {
    const t = terminal();
    const asked = t.form.ask(
      form('Tags?', { tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 } }, [
        'tags',
      ]),
      new AbortController().signal,
    );
    await t.press('Tags?', ENTER);
    await t.press('tags (required)', `${SPACE}${DOWN}${SPACE}${DOWN}${SPACE}${ENTER}`);
    await t.press('pick at most 2', `${SPACE}${ENTER}`); // Asked again with a, b, c picked: unpick a.
    expect(await asked).toEqual({ action: 'accept', content: { tags: ['b', 'c'] } });
  });

  it('returns decline or cancel without asking the fields; Escape cancels the form', async () => {
    const declining = terminal();
    const declined = declining.form.ask(params, new AbortController().signal);
    await declining.press('Deploy web@1.0?', `${DOWN}${ENTER}`);
    expect(await declined).toEqual({ action: 'decline' });
    expect(declining.screen()).not.toContain('Deploy now?');

    const escaping = terminal();
    const escaped = escaping.form.ask(params, new AbortController().signal);
    await escaping.press('Deploy web@1.0?', ENTER);
    await escaping.press('Deploy now?', '\x1b');
    expect(await escaped).toEqual({ action: 'cancel' });
  });

  it('a URL-mode request shows the URL and asks whether it was completed', async () => {
    const t = terminal();
    const asked = t.form.ask(
      { mode: 'url', message: 'Sign in to the registry', url: 'https://example.com/auth' },
      new AbortController().signal,
    );
    await t.press('Did you complete it there?', ENTER);
    expect(await asked).toEqual({ action: 'accept' });
    expect(t.screen()).toMatch(/Sign in to the registry\n.*The server asks you to open: https:\/\/example.com\/auth/);
  });

  it('rejects when the input ends, so the client answers cancel', async () => {
    const t = terminal();
    const asked = t.form.ask(params, new AbortController().signal);
    await t.press('Deploy web@1.0?', '');
    t.input.end();
    await expect(asked).rejects.toThrow('input closed');
  });

  it('Ctrl-C at a prompt interrupts the program (not just the form)', async () => {
    const t = terminal();
    const asked = t.form.ask(params, new AbortController().signal);
    await t.press('Deploy web@1.0?', '\x03');
    await expect(asked).rejects.toThrow('interrupted');
    expect(t.interrupt).toHaveBeenCalledOnce();
  });

  it('the accept / decline / cancel choice shows every valid answer, and a stray key picks none', async () => {
    const t = terminal();
    const asked = t.form.ask(params, new AbortController().signal);
    await t.press('Deploy web@1.0?', 'x');
    await t.press('Cancel', `${DOWN}${DOWN}${ENTER}`);
    expect(await asked).toEqual({ action: 'cancel' });
    expect(t.screen()).toMatch(/Accept[^\n]*\n[^\n]*Decline[^\n]*\n[^\n]*Cancel/);
    expect(t.screen()).toMatch(/↑\/↓ to navigate • Enter: confirm/);
  });
});
