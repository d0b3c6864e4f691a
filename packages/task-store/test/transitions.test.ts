import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type InputRequest, isTerminalStatus, type TaskRecord } from '../src/index.js';
import * as t from '../src/transitions.js';

const STAMP = '2026-07-28T00:00:00.000Z';
const LATER = '2026-07-28T00:00:01.000Z';
const ELICIT: InputRequest = {
  method: 'elicitation/create',
  params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } },
};
const ACCEPT = { action: 'accept' } as const;

const fresh = (): TaskRecord =>
  t.newTask('task-1', 'alice', { ttlMs: 1_000, lease: { worker: 'w1', until: 10 } }, STAMP);

describe('transitions (unit)', () => {
  it('starts working at version 1, frozen, with the caller id and lease', () => {
    const record = fresh();
    expect(record).toMatchObject({ taskId: 'task-1', owner: 'alice', version: 1, status: 'working' });
    expect(record.lease).toEqual({ worker: 'w1', until: 10 });
    expect(Object.isFrozen(record) && Object.isFrozen(record.lease)).toBe(true);
  });

  it('refuses every transition on a terminal record', () => {
    for (const end of [
      t.complete(fresh(), {}, LATER),
      t.fail(fresh(), { code: 1, message: 'x' }, LATER),
      t.cancel(fresh(), LATER),
    ]) {
      if (end === undefined) throw new Error('refused');
      expect(end.lease).toBeUndefined();
      expect(t.complete(end, {}, LATER)).toBeUndefined();
      expect(t.cancel(end, LATER)).toBeUndefined();
      expect(t.setStatusMessage(end, 'x', LATER)).toBeUndefined();
      expect(t.requestInput(end, ELICIT, LATER)).toBeUndefined();
      expect(t.resolveInputs(end, { 'input-2': ACCEPT }, LATER).record).toBe(end);
      expect(t.renewLease(end, 'w1', 20)).toBeUndefined();
      expect(t.takeOverLease(end, 'w2', 20, 100)).toBeUndefined();
    }
  });

  it('moves answers into the record all at once and returns to working when none is left', () => {
    const one = t.requestInput(fresh(), ELICIT, LATER);
    const two = one && t.requestInput(one.record, ELICIT, LATER);
    if (!one || !two) throw new Error('refused');
    expect(two.record.status).toBe('input_required');
    const partial = t.resolveInputs(two.record, { [one.key]: ACCEPT, 'input-99': ACCEPT }, LATER);
    expect(partial.accepted).toEqual([one.key]);
    expect(partial.record).toMatchObject({ status: 'input_required', answers: { [one.key]: ACCEPT } });
    const all = t.resolveInputs(partial.record, { [two.key]: ACCEPT }, LATER);
    expect(all.record.status).toBe('working');
    expect(t.issuedInputKeys(all.record)).toEqual([one.key, two.key]);
  });

  it('renews only its own lease, takes over only a lapsed one, and neither moves lastUpdatedAt', () => {
    const record = fresh();
    expect(t.renewLease(record, 'w2', 20)).toBeUndefined();
    const renewed = t.renewLease(record, 'w1', 20);
    expect(renewed).toMatchObject({ version: 2, lease: { worker: 'w1', until: 20 }, lastUpdatedAt: STAMP });
    expect(renewed && t.sameClientView(record, renewed)).toBe(true);
    expect(t.takeOverLease(record, 'w2', 50, 5)).toBeUndefined();
    expect(t.takeOverLease(record, 'w2', 50, 10)).toMatchObject({ lease: { worker: 'w2', until: 50 } });
    expect(t.heldLease(record, 9)).toEqual({ worker: 'w1', until: 10 });
    expect(t.heldLease(record, 10)).toBeUndefined();
  });
});

type Step =
  | { readonly kind: 'ask' | 'cancel' | 'complete' | 'fail' | 'status' | 'renew' | 'takeOver' | 'release' }
  | { readonly kind: 'answer' | 'withdraw'; readonly pick: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom(
      'ask' as const,
      'cancel' as const,
      'complete' as const,
      'fail' as const,
      'status' as const,
      'renew' as const,
      'takeOver' as const,
      'release' as const,
    ),
  }),
  fc.record({ kind: fc.constantFrom('answer' as const, 'withdraw' as const), pick: fc.nat(8) }),
);

function apply(record: TaskRecord, step: Step, issued: string[], now: number): TaskRecord | undefined {
  const stamp = new Date(Date.parse(STAMP) + now).toISOString();
  switch (step.kind) {
    case 'ask': {
      const asked = t.requestInput(record, ELICIT, stamp);
      if (asked) {
        expect(issued, 'keys are never reused').not.toContain(asked.key);
        issued.push(asked.key);
      }
      return asked?.record;
    }
    case 'answer': {
      const key = issued[step.pick % Math.max(issued.length, 1)] ?? 'none';
      const resolved = t.resolveInputs(record, { [key]: ACCEPT }, stamp);
      expect(resolved.accepted).toEqual(Object.hasOwn(record.inputRequests, key) ? [key] : []);
      return resolved.record === record ? undefined : resolved.record;
    }
    case 'withdraw':
      return t.withdrawInput(record, issued[step.pick % Math.max(issued.length, 1)] ?? 'none', stamp);
    case 'cancel':
      return t.cancel(record, stamp, 'stop');
    case 'complete':
      return t.complete(record, { content: [] }, stamp);
    case 'fail':
      return t.fail(record, { code: -32603, message: 'x' }, stamp);
    case 'status':
      return t.setStatusMessage(record, `at ${now}`, stamp);
    case 'renew':
      return t.renewLease(record, record.lease?.worker ?? 'w1', now + 100);
    case 'takeOver':
      return t.takeOverLease(record, `w${now}`, now + 100, now);
    case 'release':
      return t.releaseLease(record, record.lease?.worker ?? 'w1', now);
  }
}

describe('transitions (property-based)', () => {
  it('keep every invariant over random histories', () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary, { maxLength: 80 }), (steps) => {
        let record = fresh();
        const issued: string[] = [];
        for (const [now, step] of steps.entries()) {
          const next = apply(record, step, issued, now);
          if (isTerminalStatus(record.status)) expect(next, 'a terminal record never changes').toBeUndefined();
          if (next === undefined) continue;
          expect(Object.isFrozen(next)).toBe(true);
          expect(next.version).toBe(record.version + 1);
          expect(next.lastUpdatedAt >= record.lastUpdatedAt).toBe(true);
          expect(Object.keys(next.inputRequests).length > 0).toBe(next.status === 'input_required');
          expect(next.result !== undefined).toBe(next.status === 'completed');
          expect(next.error !== undefined).toBe(next.status === 'failed');
          for (const key of Object.keys(next.answers)) expect(issued).toContain(key);
          if (isTerminalStatus(next.status)) expect([next.answers, next.lease]).toEqual([{}, undefined]);
          if (step.kind === 'renew' || step.kind === 'takeOver' || step.kind === 'release') {
            expect(t.sameClientView(record, next), 'a lease change is invisible to clients').toBe(true);
          }
          record = next;
        }
      }),
      { numRuns: 500, seed: 0x2663 },
    );
  });
});
