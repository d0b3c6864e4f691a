import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerFromFile, loadAnswers } from '../src/answersFile.js';
import { BUILTIN_SAMPLER_MODEL, builtinSample } from '../src/builtinSampler.js';
import { UsageError } from '../src/cliErrors.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'answers-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(content: string): string {
  const path = join(dir, 'answers.json');
  writeFileSync(path, content);
  return path;
}

const form = {
  message: 'Deploy?',
  requestedSchema: {
    type: 'object' as const,
    properties: {
      confirm: { type: 'boolean' as const },
      env: { type: 'string' as const, enum: ['dev', 'prod'], default: 'dev' },
      note: { type: 'string' as const },
    },
    required: ['confirm'],
  },
};

describe('answers file', () => {
  it('answers a form from field values and defaults, leaving out optional fields without either', () => {
    const answers = loadAnswers(file('{"confirm": true}'));
    expect(answerFromFile(answers, form)).toEqual({ action: 'accept', content: { confirm: true, env: 'dev' } });
  });

  it('declines or cancels when $action says so', () => {
    expect(answerFromFile(loadAnswers(file('{"$action":"decline"}')), form)).toEqual({ action: 'decline' });
    expect(answerFromFile(loadAnswers(file('{"$action":"cancel"}')), form)).toEqual({ action: 'cancel' });
  });

  it('rejects a file that does not satisfy the form as a usage error naming the field and the rule', () => {
    const check = (content: string) => () => answerFromFile(loadAnswers(file(content)), form);
    expect(check('{}')).toThrow(UsageError);
    expect(check('{}')).toThrow(/field "confirm" is required by the form "Deploy\?"/);
    expect(check('{"confirm":"yes"}')).toThrow(UsageError);
    expect(check('{"confirm":"yes"}')).toThrow(/field "confirm": expected true or false, got "yes"/);
    expect(check('{"confirm":true,"env":"qa"}')).toThrow(/field "env": expected one of dev, prod, got "qa"/);
    expect(check('{"confirm":true,"confrim":true}')).toThrow(UsageError);
    expect(check('{"confirm":true,"confrim":true}')).toThrow(
      /"confrim" is not a field of the form "Deploy\?" \(its fields: confirm, env, note\)/,
    );
  });

  it('rejects unreadable or malformed files as usage errors', () => {
    expect(() => loadAnswers(join(dir, 'missing.json'))).toThrow(UsageError);
    expect(() => loadAnswers(file('[1]'))).toThrow(UsageError);
    expect(() => loadAnswers(file('{"$action":"maybe"}'))).toThrow(UsageError);
    expect(() => loadAnswers(file('{"$sampling":3}'))).toThrow(UsageError);
  });
});

describe('built-in sampler', () => {
  const params = {
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Summarise this' } }],
    maxTokens: 50,
  };

  it('echoes the last user message, labelled as coming from no model', () => {
    const result = builtinSample(params);
    expect(result.model).toBe(BUILTIN_SAMPLER_MODEL);
    expect(result.content).toEqual({
      type: 'text',
      text: '[built-in responder, no model attached] You said: Summarise this',
    });
  });

  it('uses the canned reply when one is given', () => {
    expect(builtinSample(params, 'Short summary').content).toEqual({ type: 'text', text: 'Short summary' });
  });
});
