/**
 * A board of 200 tasks whose updates stream in over WebSocket (`subscriptions/listen`). Asserted without timing:
 * every card element is created once and never replaced, no card moves while the updates and results arrive, the
 * Layout Instability API reports no shift, and every task ends `completed` on its card. The main thread's long
 * tasks are measured and printed (see the README), not asserted.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchBrowser, openPage, type TrackedPage } from './browser.js';
import { startToolServer, type ToolServer } from './toolServer.js';

const TASKS = 200;
/** Long enough (about 11 s) for every elapsed time to pass from one digit to two. */
const STEPS = 44;
const INTERVAL_MS = 250;

/** What the page records from the first moment on (installed before any page script runs). */
interface Probe {
  shifts: { startTime: number; value: number; sources: string[] }[];
  longTasks: { startTime: number; duration: number }[];
  /** `performance.now()` once all cards exist and their first layout is done. */
  renderedAt: number;
  /** Card elements added to or removed from the board after that. */
  cardsAdded: number;
  cardsRemoved: number;
}

declare global {
  interface Window {
    probe: Probe;
    initialCards: Element[];
    initialBoxes: { top: number; left: number; width: number; height: number }[];
  }
}

function installProbe(): void {
  const probe: Probe = {
    shifts: [],
    longTasks: [],
    renderedAt: Number.POSITIVE_INFINITY,
    cardsAdded: 0,
    cardsRemoved: 0,
  };
  window.probe = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null }[];
    })[]) {
      if (entry.hadRecentInput) continue;
      const sources = (entry.sources ?? []).map((s) =>
        s.node instanceof Element ? `${s.node.tagName.toLowerCase()}.${s.node.className}` : String(s.node?.nodeName),
      );
      probe.shifts.push({ startTime: entry.startTime, value: entry.value, sources });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      probe.longTasks.push({ startTime: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

let browser: Browser;
let server: ToolServer;
let tracked: TrackedPage;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startToolServer(['--transport', 'ws'])]);
});
afterAll(async () => {
  await tracked?.page.context().close();
  await browser?.close();
  await server?.kill();
});

/** Submits the count_steps form `count` times in one go (the page's own submit path) and starts watching. */
async function startTasks(page: Page, count: number): Promise<void> {
  await page.evaluate((n) => {
    const form = document.querySelector<HTMLFormElement>('form.tool-form[data-tool="count_steps"]');
    if (form === null) throw new Error('no count_steps form');
    for (let i = 0; i < n; i++) form.requestSubmit();
    const board = document.getElementById('board') as HTMLElement;
    const isCard = (node: Node) => node instanceof HTMLElement && node.matches('li.card');
    new MutationObserver((records) => {
      for (const record of records) {
        window.probe.cardsAdded += [...record.addedNodes].filter(isCard).length;
        window.probe.cardsRemoved += [...record.removedNodes].filter(isCard).length;
      }
    }).observe(board, { childList: true, subtree: true });
    window.initialCards = [...board.querySelectorAll('li.card')];
  }, count);
  // After the cards' first layout: where each one sits from now on.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            window.probe.renderedAt = performance.now();
            window.initialBoxes = window.initialCards.map((card) => {
              const box = card.getBoundingClientRect();
              return { top: box.top + scrollY, left: box.left + scrollX, width: box.width, height: box.height };
            });
            resolve();
          }),
        ),
      ),
  );
}

describe('a board of 200 streaming tasks', () => {
  it('updates every card in place, moves none, and shows every task completed', { timeout: 180_000 }, async () => {
    tracked = await openPage(browser);
    const { page } = tracked;
    await page.addInitScript(installProbe);
    await page.goto(server.consoleUrl);
    await vi.waitFor(async () => expect(await page.locator('#connection').textContent()).toMatch(/Connected/), {
      timeout: 20_000,
    });
    await page.locator('#tool-list li[data-tool="count_steps"] button').click();
    const form = page.locator('form.tool-form[data-tool="count_steps"]');
    await form.locator('[name="steps"]').fill(String(STEPS));
    await form.locator('[name="intervalMs"]').fill(String(INTERVAL_MS));

    await startTasks(page, TASKS);
    expect(await page.locator('li.card').count()).toBe(TASKS);

    // Updates stream in: every card passes through `working` with a counted step, then completes.
    await vi.waitFor(async () => expect(await page.locator('li.card[data-status="completed"]').count()).toBe(TASKS), {
      timeout: 150_000,
      interval: 250,
    });
    const outcome = await page.evaluate(() => {
      const now = [...document.querySelectorAll('#board li.card')];
      const moved = window.initialCards.flatMap((card, i) => {
        const box = card.getBoundingClientRect();
        const was = window.initialBoxes[i];
        const is = { top: box.top + scrollY, left: box.left + scrollX, width: box.width, height: box.height };
        const same =
          was !== undefined &&
          Math.abs(was.top - is.top) < 0.5 &&
          Math.abs(was.left - is.left) < 0.5 &&
          Math.abs(was.width - is.width) < 0.5 &&
          Math.abs(was.height - is.height) < 0.5;
        return same ? [] : [{ card: i, was, is }];
      });
      const { probe } = window;
      const shifts = probe.shifts.filter((s) => s.startTime > probe.renderedAt);
      const longTasks = probe.longTasks;
      const streaming = longTasks.filter((t) => t.startTime > probe.renderedAt);
      return {
        sameNodes: now.length === window.initialCards.length && now.every((card, i) => card === window.initialCards[i]),
        added: probe.cardsAdded,
        removed: probe.cardsRemoved,
        moved: moved.slice(0, 5),
        movedCount: moved.length,
        shiftTotal: shifts.reduce((sum, s) => sum + s.value, 0),
        shifts: shifts.slice(0, 5),
        longTaskCount: longTasks.length,
        longestTaskMs: Math.max(0, ...longTasks.map((t) => t.duration)),
        longTaskTotalMs: longTasks.reduce((sum, t) => sum + t.duration, 0),
        streamingLongTasks: streaming.length,
        longestStreamingMs: Math.max(0, ...streaming.map((t) => t.duration)),
        results: [...document.querySelectorAll('#board li.card [data-testid=result]')].map((r) => r.textContent),
      };
    });
    // Measured, not asserted: how busy the main thread was (printed for the README's figures).
    console.info(
      `board of ${TASKS}: ${outcome.longTaskCount} long tasks, longest ${outcome.longestTaskMs.toFixed(0)} ms, ` +
        `${outcome.longTaskTotalMs.toFixed(0)} ms in all; after the cards were built ${outcome.streamingLongTasks}, ` +
        `longest ${outcome.longestStreamingMs.toFixed(0)} ms`,
    );
    expect(outcome.sameNodes).toBe(true);
    expect({ added: outcome.added, removed: outcome.removed }).toEqual({ added: 0, removed: 0 });
    expect(outcome.moved).toEqual([]);
    expect(outcome.shifts).toEqual([]);
    expect(outcome.shiftTotal).toBe(0);
    expect(outcome.results).toHaveLength(TASKS);
    expect(new Set(outcome.results)).toEqual(new Set([expect.stringContaining(`Counted ${STEPS} steps`)]));
    expect(tracked.pageErrors()).toEqual([]);
  });
});
