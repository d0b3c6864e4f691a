import { delay, type TransportNotification } from '@mcp-tasks/protocol';
import { fill, matchValue, readPath } from './matchValue.js';
import type { Observation } from './observation.js';
import type { ExpectationResult } from './report.js';
import { expirySkipReason, httpMismatch, withoutEnvelope } from './stepChecks.js';
import type { Recordable, RunMode, RunnableStep } from './stepTypes.js';
import type { AwaitNotificationStep, ListenStep, PollStep, SendStep, SingleStep, Step } from './transcriptSchema.js';
import type { Exchange, Wire } from './wire.js';

interface OpenStream {
  readonly notifications: TransportNotification[];
  readonly controller: AbortController;
  readonly done: Promise<Exchange | undefined>;
}

/** The state of one scenario run. */
export class StepRunner {
  /** The values captured so far by name, filled into later steps' `{{name}}` placeholders. */
  readonly vars = new Map<string, unknown>();
  /** Every exchange sent so far, in sending order: what the behaviour checks read. */
  readonly log: Observation[] = [];
  /** The expectations reported so far, in the order they were concluded. */
  readonly results: ExpectationResult[] = [];
  readonly #streams = new Map<string, OpenStream>();

  /**
   * A runner for one scenario. It sends on `wire` but does not own it: the caller closes the wire, and calls
   * {@link StepRunner.closeAll} once the scenario's steps ran.
   */
  constructor(
    /** The scenario's name, reported with each expectation. */
    readonly scenario: string,
    /** Where requests go. */
    readonly wire: Wire,
    /** Whether expectations are checked (replay) or recorded. */
    readonly mode: RunMode,
  ) {}

  /** Runs one step (a group runs its steps concurrently); resolves with the step as recorded. */
  async run(step: RunnableStep | Step): Promise<Step> {
    if (step.kind !== 'parallel') return this.#runSingle(step as Recordable<SingleStep>);
    const steps = await Promise.all(step.steps.map((inner) => this.#runSingle(inner as Recordable<SingleStep>)));
    return { kind: 'parallel', name: step.name, steps };
  }

  /** Closes every stream still open. */
  async closeAll(): Promise<void> {
    for (const stream of this.#streams.values()) stream.controller.abort();
    await Promise.allSettled([...this.#streams.values()].map((stream) => stream.done));
    this.#streams.clear();
  }

  async #runSingle(step: Recordable<SingleStep>): Promise<SingleStep> {
    try {
      switch (step.kind) {
        case 'send':
          return await this.#send(step as Recordable<SendStep>);
        case 'poll':
          return await this.#poll(step as Recordable<PollStep>);
        case 'listen':
          return await this.#listen(step as Recordable<ListenStep>);
        case 'awaitNotification':
          return await this.#awaitNotification(step as Recordable<AwaitNotificationStep>);
        default:
          return await this.#closeStream(step);
      }
    } catch (error) {
      if (this.mode.kind === 'record') throw error;
      this.#report(step.name, 'fail', error instanceof Error ? error.message : String(error));
      return step as SingleStep;
    }
  }

  async #send(step: Recordable<SendStep>): Promise<SendStep> {
    if (this.#skipOther(step)) return step as SendStep;
    const { exchange } = await this.#exchange(step);
    return this.#conclude(step, exchange);
  }

  async #poll(step: Recordable<PollStep>): Promise<PollStep> {
    if (this.#skipOther(step)) return step as PollStep;
    let timeoutMs = step.timeoutMs;
    if (step.expiryOf !== undefined && this.mode.kind === 'replay') {
      const due = this.#expiryDue(step.expiryOf);
      if (due === undefined || due - Date.now() > this.mode.expiryBudgetMs) {
        this.#report(step.name, 'skip', expirySkipReason(due, this.mode.expiryBudgetMs));
        return step as PollStep;
      }
      timeoutMs = Math.max(timeoutMs, due - Date.now() + 10_000);
    }
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { exchange } = await this.#exchange(step);
      const body = withoutEnvelope(exchange.response);
      if (matchValue(step.until, body, this.vars) === undefined) return this.#conclude(step, exchange);
      if (Date.now() > deadline) {
        if (this.mode.kind === 'record') throw new Error(`${step.name}: never matched; last ${JSON.stringify(body)}`);
        this.#report(step.name, 'fail', `never matched ${JSON.stringify(step.until)} in ${timeoutMs} ms`);
        return step as PollStep;
      }
      await delay(20);
    }
  }

  async #listen(step: Recordable<ListenStep>): Promise<ListenStep> {
    if (this.#skipOther(step)) return step as ListenStep;
    const notifications: TransportNotification[] = [];
    const controller = new AbortController();
    let first: (() => void) | undefined;
    const acknowledged = new Promise<void>((resolve) => (first = resolve));
    let head: Exchange['http'];
    const params = fill(step.params, this.vars) as Record<string, unknown>;
    const observation = this.#observe(step, params, notifications);
    const done = this.wire
      .request(
        { method: step.method, params },
        {
          as: step.as ?? 'main',
          headers: this.#headers(step),
          signal: controller.signal,
          onHttpHead: (http) => (head = http),
          onNotification: (notification) => {
            notifications.push(notification);
            first?.();
          },
        },
      )
      .then((exchange) => {
        observation.response = exchange.response;
        first?.();
        return exchange;
      });
    // A stream that fails after its acknowledgement is reported when it is awaited (close); never unhandled.
    done.catch(() => undefined);
    this.#streams.set(step.stream, { notifications, controller, done });
    const giveUp = new AbortController();
    await Promise.race([acknowledged, done, delay(30_000, giveUp.signal).catch(() => undefined)]);
    giveUp.abort();
    const ack = notifications[0] ?? (await Promise.race([done, undefined]))?.response;
    return this.#conclude(step, { response: ack as Record<string, unknown> | undefined, ...(head && { http: head }) });
  }

  async #awaitNotification(step: Recordable<AwaitNotificationStep>): Promise<AwaitNotificationStep> {
    const stream = this.#streams.get(step.stream);
    if (stream === undefined) {
      this.#report(step.name, 'skip', `stream ${step.stream} is not open`);
      return step as AwaitNotificationStep;
    }
    const deadline = Date.now() + step.timeoutMs;
    for (;;) {
      const found = stream.notifications.find((n) => matchValue(step.until, n, this.vars) === undefined);
      if (found !== undefined) return this.#conclude(step, { response: found as unknown as Record<string, unknown> });
      if (Date.now() > deadline) {
        if (this.mode.kind === 'record') throw new Error(`${step.name}: no matching notification`);
        this.#report(
          step.name,
          'fail',
          `no notification matched ${JSON.stringify(step.until)} in ${step.timeoutMs} ms`,
        );
        return step as AwaitNotificationStep;
      }
      await delay(20);
    }
  }

  async #closeStream(step: SingleStep & { kind: 'closeStream' }): Promise<SingleStep> {
    const stream = this.#streams.get(step.stream);
    if (stream === undefined) {
      this.#report(step.name, 'skip', `stream ${step.stream} is not open`);
      return step;
    }
    stream.controller.abort();
    await stream.done.catch(() => undefined);
    this.#streams.delete(step.stream);
    this.#report(step.name, 'pass');
    return step;
  }

  async #exchange(step: Recordable<SendStep> | Recordable<PollStep>) {
    const params = fill(step.params, this.vars) as Record<string, unknown>;
    const notifications: TransportNotification[] = [];
    const observation = this.#observe(step, params, notifications);
    const exchange = await this.wire.request(
      { method: step.method, params },
      { as: step.as ?? 'main', headers: this.#headers(step), onNotification: (n) => notifications.push(n) },
    );
    observation.response = exchange.response;
    observation.answeredAt = Date.now();
    return { exchange };
  }

  #observe(
    step: { as?: 'main' | 'other' | undefined; method: string },
    params: Record<string, unknown>,
    notifications: TransportNotification[],
  ) {
    const observation: Observation = {
      as: step.as ?? 'main',
      method: step.method,
      params,
      response: undefined,
      notifications,
      answeredAt: Date.now(),
    };
    this.log.push(observation);
    return observation;
  }

  /** The recorded HTTP headers to send (replay over HTTP), filled; undefined lets the wire compute them. */
  #headers(step: { http?: { request: { headers: Record<string, string> } } | undefined }) {
    if (this.mode.kind !== 'replay' || step.http === undefined) return undefined;
    return fill(step.http.request.headers, this.vars) as Record<string, string>;
  }

  /** Captures, then records or checks the response (and the HTTP head). */
  #conclude<T extends Recordable<SingleStep>>(step: T, exchange: Exchange): T & SingleStep {
    const body = withoutEnvelope(exchange.response);
    if ('capture' in step && step.capture !== undefined) {
      for (const [name, path] of Object.entries(step.capture)) this.vars.set(name, readPath(body, path));
    }
    if (this.mode.kind === 'record') {
      const normalize = this.mode.normalize ?? ((value: unknown) => value);
      const http = exchange.http;
      const { loosen, ...recorded } = step as T & { loosen?: unknown };
      for (const [name, path] of Object.entries(('capture' in step && step.capture) || {})) {
        if (this.vars.get(name) === undefined)
          throw new Error(`${step.name}: nothing at ${path} to capture as ${name}`);
      }
      return {
        ...recorded,
        expect: loosen === undefined ? normalize(body, this.vars, step.name) : loosen,
        ...(http === undefined
          ? {}
          : {
              http: {
                request: { headers: normalize(http.requestHeaders, this.vars, step.name) as Record<string, string> },
                response: { status: http.status, contentType: http.contentType },
              },
            }),
      } as T & SingleStep;
    }
    const recorded = step as T & SingleStep;
    const miss = matchValue('expect' in recorded ? recorded.expect : undefined, body, this.vars);
    const httpMiss = 'http' in recorded ? httpMismatch(recorded.http, exchange.http) : undefined;
    const reason = miss ?? httpMiss;
    this.#report(step.name, reason === undefined ? 'pass' : 'fail', reason);
    return recorded;
  }

  #skipOther(step: { as?: 'main' | 'other' | undefined; name: string }): boolean {
    if (step.as !== 'other' || this.wire.otherUnavailable === undefined) return false;
    if (this.mode.kind === 'record')
      throw new Error(`recording needs a second principal: ${this.wire.otherUnavailable}`);
    this.#report(step.name, 'skip', `needs a second principal: ${this.wire.otherUnavailable}`);
    return true;
  }

  /** When the task captured under `name` expires, from the last `createdAt` and `ttlMs` seen for it. */
  #expiryDue(name: string): number | undefined {
    const taskId = this.vars.get(name);
    for (const observation of [...this.log].reverse()) {
      const result = observation.response?.result as Record<string, unknown> | undefined;
      if (result?.taskId !== taskId || typeof result?.ttlMs !== 'number') continue;
      return Date.parse(String(result.createdAt)) + result.ttlMs;
    }
    return undefined;
  }

  #report(expectation: string, outcome: ExpectationResult['outcome'], reason?: string): void {
    this.results.push({ scenario: this.scenario, expectation, outcome, ...(reason === undefined ? {} : { reason }) });
  }
}

export type { Recordable, RunMode, RunnableStep } from './stepTypes.js';
