import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchBrowser, openPage, type TrackedPage } from './browser.js';
import { startToolServer, type ToolServer } from './toolServer.js';

/** `pnpm screenshots` sets this: the same run then rewrites the README's pictures; a normal run never does. */
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';
const shot = async (page: Page, name: string) => {
  if (!SCREENSHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: fileURLToPath(new URL(`../docs/${name}.png`, import.meta.url)) });
};

let browser: Browser;
let server: ToolServer;
const servers: ToolServer[] = [];
const pages: TrackedPage[] = [];

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startToolServer()]);
});
afterEach(async () => {
  // Every page must have stayed free of console errors (the browser's own "Failed to load resource" lines for
  // requests the page expected to fail are left out; the tests that provoke them check the page's message).
  for (const tracked of pages.splice(0)) {
    expect(tracked.pageErrors()).toEqual([]);
    await tracked.page.context().close();
  }
  await Promise.all(servers.splice(0).map((s) => s.kill()));
});
afterAll(async () => {
  await browser?.close();
  await server?.kill();
});

async function open(url = server.consoleUrl): Promise<Page> {
  const tracked = await openPage(browser);
  pages.push(tracked);
  await tracked.page.goto(url);
  return tracked.page;
}

/** Opens the console and waits until it is connected (it connects to the server that served it by itself). */
async function connected(url?: string): Promise<Page> {
  const page = await open(url);
  await expectText(page, '#connection', /Connected to mcp-tasks-tool-server/);
  return page;
}

async function expectText(page: Page, selector: string, pattern: RegExp): Promise<void> {
  await vi.waitFor(async () => expect(await page.locator(selector).first().textContent()).toMatch(pattern), {
    timeout: 20_000,
    interval: 50,
  });
}

/** Chooses a tool, fills its form (`fields` by property name) and calls it; returns the card of the new call. */
async function callTool(page: Page, name: string, fields: Record<string, string> = {}) {
  const before = await page.locator(`li.card[data-tool="${name}"]`).count();
  // Through the filter box, as a person finds a tool (conformance fixtures are folded away until one matches).
  await page.locator('#tool-filter').fill(name);
  await page.locator(`#tool-list li[data-tool="${name}"] button`).click();
  const form = page.locator(`form.tool-form[data-tool="${name}"]`);
  for (const [field, value] of Object.entries(fields)) await form.locator(`[name="${field}"]`).fill(value);
  await form.getByRole('button', { name: `Call ${name}` }).click();
  await vi.waitFor(async () => expect(await page.locator(`li.card[data-tool="${name}"]`).count()).toBe(before + 1));
  // Cards are prepended: the newest is first; its `data-card` number keeps pointing at it as others are added.
  const card = await page.locator(`li.card[data-tool="${name}"]`).first().getAttribute('data-card');
  return page.locator(`li.card[data-card="${card}"]`);
}

async function statusOf(card: ReturnType<Page['locator']>): Promise<string | null> {
  return card.getAttribute('data-status');
}

async function waitStatus(card: ReturnType<Page['locator']>, status: string): Promise<void> {
  await vi.waitFor(async () => expect(await statusOf(card)).toBe(status), { timeout: 30_000, interval: 50 });
}

describe('task console in Chromium', () => {
  it('connects to the server that served it and shows its info and tools', async () => {
    const page = await connected();
    await expectText(page, '[data-field="Tasks extension"]', /^advertised$/);
    await expectText(page, '[data-field="Protocol"]', /2026-07-28/);
    await expectText(page, '[data-field="Task updates"]', /polling/);
    expect(await page.locator('li[data-tool="checksum_data"] .tool-description').textContent()).toContain('SHA-256');
  });

  it('groups the tools: its own first, conformance fixtures folded away, a filter box; long names wrap', async () => {
    const page = await connected();
    const first = await page.locator('#tool-list > li').first().getAttribute('data-tool');
    expect(first).not.toMatch(/^test_/);
    const fixtures = page.locator('#tool-list details.fixtures');
    expect(await fixtures.locator('summary').textContent()).toMatch(/^Conformance fixtures \(\d+\)$/);
    // The heading says how many tools there are, the folded fixtures counted apart.
    const folded = (await fixtures.locator('summary').textContent())?.replace(/\D/g, '');
    const own = await page.locator('#tool-list > li[data-tool]').count();
    expect(await page.locator('#tools-count').textContent()).toBe(`(${own} + ${folded} fixtures)`);
    expect(await fixtures.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator('li[data-tool="test_simple_text"]').isVisible()).toBe(false);
    expect(await page.locator('li[data-tool="checksum_data"]').isVisible()).toBe(true);
    // Nothing in the list is wider than the list: no side scrollbar hides a description.
    const list = page.locator('#tool-list');
    expect(await list.evaluate((l) => l.scrollWidth <= l.clientWidth)).toBe(true);
    await shot(page, 'console-tools');
    await page.locator('#tool-filter').fill('simple_text');
    expect(await page.locator('li[data-tool="test_simple_text"]').isVisible()).toBe(true);
    expect(await page.locator('li[data-tool="checksum_data"]').isVisible()).toBe(false);
    await page.locator('#tool-filter').fill('');
    expect(await page.locator('li[data-tool="checksum_data"]').isVisible()).toBe(true);
  });

  it('guides a first call: hints until a tool is chosen, then the chosen tool, its form and its button in view', async () => {
    const page = await connected();
    await expectText(page, '#tool-form', /^Choose a tool to fill in its arguments and call it\.$/);
    const boardHint = await page.locator('#board').evaluate((board) => getComputedStyle(board, '::before').content);
    expect(boardHint).toContain('Each call you make shows here as a card');
    await page.locator('#tool-list li[data-tool="count_steps"] button').click();
    const within = async (inner: ReturnType<Page['locator']>, outer: { y: number; height: number }) => {
      const box = await inner.boundingBox();
      // Within a pixel: scrolled into view, a box may end a fraction of a pixel past its scroller's edge.
      return box !== null && box.y >= outer.y - 1 && box.y + box.height <= outer.y + outer.height + 1;
    };
    const list = await page.locator('#tool-list').boundingBox();
    expect(list).not.toBeNull();
    expect(
      await within(page.locator('#tool-list li[data-tool="count_steps"] button'), list ?? { y: 0, height: 0 }),
    ).toBe(true);
    const viewport = { y: 0, height: page.viewportSize()?.height ?? 0 };
    expect(await within(page.locator('#tool-filter'), viewport)).toBe(true);
    expect(await within(page.getByRole('button', { name: 'Call count_steps' }), viewport)).toBe(true);
  });

  it('calls a plain tool and shows its direct result', async () => {
    const page = await connected();
    const card = await callTool(page, 'test_simple_text');
    await waitStatus(card, 'direct');
    expect(await card.locator('[data-testid=task-id]').textContent()).toBe('');
    expect(await card.locator('[data-testid=result]').textContent()).toMatch(/\S/);
  });

  it('validates a form against the tool schema before calling', async () => {
    const page = await connected();
    await page.locator('#tool-list li[data-tool="checksum_data"] button').click();
    const form = page.locator('form.tool-form[data-tool="checksum_data"]');
    expect(await form.locator('[name="megabytes"]').inputValue()).toBe('512');
    await form.locator('[name="megabytes"]').fill('1.5');
    await form.getByRole('button', { name: 'Call checksum_data' }).click();
    await expectText(page, '.field-error', /whole number/);
    expect(await form.locator('[name="megabytes"]').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('li.card').count()).toBe(0);
  });

  it('runs a task tool and watches it complete, with its structured result', async () => {
    const page = await connected();
    const card = await callTool(page, 'checksum_data', { megabytes: '48', seed: 'console' });
    await vi.waitFor(async () => expect(await card.locator('[data-testid=task-id]').textContent()).toMatch(/\S/));
    await waitStatus(card, 'completed');
    const result = card.locator('[data-testid=result]');
    // The status line previews the result; the full view opens on demand, so a finished card keeps its height.
    expect(await card.locator('[data-testid=message]').textContent()).toMatch(/^SHA-256 of 48 MiB generated/);
    expect(await result.isVisible()).toBe(false);
    // A long unbroken preview (the hash) is cut off on its line; it never widens the board past the window.
    const box = await card.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
    await card.getByRole('button', { name: 'Show result' }).click();
    expect(await result.isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: 'Hide result' }).getAttribute('aria-expanded')).toBe('true');
    expect(await result.textContent()).toContain('SHA-256 of 48 MiB generated from seed "console"');
    expect(await result.locator('details.structured summary').first().textContent()).toBe('structuredContent');
    await shot(page, 'result');
  });

  it('answers an elicitation form inside a task', async () => {
    const page = await connected();
    const card = await callTool(page, 'deploy_service', { service: 'web', version: '1.2.3' });
    const form = card.locator('form.input-form[data-kind="elicitation"]');
    await form.waitFor({ timeout: 30_000 });
    expect(await statusOf(card)).toBe('input_required');
    expect(await form.textContent()).toContain('Deploy web@1.2.3');
    // The client's InputContext names the asking tool; the form says who asks.
    expect(await form.locator('[data-testid=asker]').textContent()).toBe('deploy_service');
    // The board heading says a call waits for an answer, and its button brings the form's first field into focus.
    const waiting = page.locator('#waiting-input');
    await expectText(page, '#waiting-input', /^1 call waits for your answer$/);
    await page.locator('#tool-filter').focus();
    await waiting.click();
    expect(await form.evaluate((f) => f.contains(document.activeElement))).toBe(true);
    await form.getByLabel('Change note').fill('from the console');
    await shot(page, 'form');
    await form.getByLabel(/Deploy now\?/).check();
    await form.getByRole('button', { name: 'Accept' }).click();
    await expectText(page, 'li.card[data-tool="deploy_service"] [data-testid=answered]', /accepted/);
    expect(await waiting.isVisible()).toBe(false);
    await waitStatus(card, 'completed');
    expect(await card.locator('[data-testid=result]').textContent()).toContain('Deployed web@1.2.3 to staging, build');
    expect(await card.locator('[data-testid=result]').textContent()).toContain('(note: from the console)');
    // deploy_service is durable: its card shows the steps (a re-run after parking marks the chips it re-ran).
    const chips = await card.locator('[data-testid=steps] .chip').allTextContents();
    expect(chips.map((chip) => chip.replace(/ ↻\d+$/, ''))).toEqual([
      'build',
      'rollout canary (10%)',
      'rollout half (50%)',
      'rollout full (100%)',
    ]);
  });

  it("shows a durable task's step timeline with the re-run a retried step caused", async () => {
    const page = await connected();
    const card = await callTool(page, 'migrate_database', { database: 'shop', tables: '3', tableMegabytes: '1' });
    await waitStatus(card, 'completed');
    const steps = card.locator('[data-testid=steps]');
    expect(await steps.locator('.chip').allTextContents()).toEqual([
      'snapshot',
      'migrate table 1',
      'migrate table 2 ↻2',
      'migrate table 3 ↻2',
    ]);
    expect(await steps.locator('.runs').textContent()).toBe('run 2');
    expect(await card.locator('[data-testid=result]').textContent()).toContain('Migrated 3 tables of shop');
  });

  it('routes the input requests of concurrent calls to their own cards, tasks and plain calls alike', async () => {
    const page = await connected();
    // Two tasks of the same tool ask at once, and a plain call (no task: MRTR rounds) asks too.
    const first = await callTool(page, 'deploy_service', { service: 'one', version: '1.0.0' });
    const second = await callTool(page, 'deploy_service', { service: 'two', version: '2.0.0' });
    const plain = await callTool(page, 'test_input_required_result_elicitation');
    const formOf = (card: typeof first) => card.locator('form.input-form[data-kind="elicitation"]');
    await Promise.all([first, second, plain].map((card) => formOf(card).waitFor({ timeout: 30_000 })));
    expect(await formOf(first).textContent()).toContain('Deploy one@1.0.0');
    expect(await formOf(second).textContent()).toContain('Deploy two@2.0.0');
    expect(await formOf(plain).textContent()).toContain('What is your name?');
    // Three open requests; the heading's button goes to the oldest call's form.
    await expectText(page, '#waiting-input', /^3 calls wait for your answer$/);
    await page.locator('#waiting-input').click();
    expect(await formOf(first).evaluate((f) => f.contains(document.activeElement))).toBe(true);
    expect(await formOf(plain).locator('[data-testid=asker]').textContent()).toBe(
      'test_input_required_result_elicitation',
    );
    expect(await plain.locator('[data-testid=task-id]').textContent()).toBe('');
    await formOf(plain).getByLabel('name').fill('Ada');
    await formOf(plain).getByRole('button', { name: 'Accept' }).click();
    await waitStatus(plain, 'direct');
    expect(await plain.locator('[data-testid=result]').textContent()).toContain('Hello, Ada!');
    await formOf(second).getByRole('button', { name: 'Decline' }).click();
    await waitStatus(second, 'completed');
    expect(await second.locator('[data-testid=result]').textContent()).toContain('two@2.0.0 to staging cancelled');
    expect(await formOf(first).count()).toBe(1);
    await first.getByRole('button', { name: 'Cancel deploy_service' }).click();
    await waitStatus(first, 'cancelled');
    // A withdrawn form (its task cancelled) no longer counts.
    await vi.waitFor(async () => expect(await page.locator('#waiting-input').isVisible()).toBe(false));
  });

  it('answers a sampling request typed by the person', async () => {
    const page = await connected();
    const card = await callTool(page, 'summarize_text', { text: 'Tasks let long tool calls outlive a request.' });
    const form = card.locator('form.input-form[data-kind="sampling"]');
    await form.waitFor({ timeout: 30_000 });
    expect(await form.locator('.conversation').textContent()).toContain('Tasks let long tool calls outlive');
    await form.getByRole('button', { name: 'Send reply' }).click();
    await expectText(page, 'form.input-form[data-kind="sampling"] .field-error', /Write a reply/);
    await form.getByLabel('Your reply').fill('Tasks outlive requests.');
    await form.getByRole('button', { name: 'Send reply' }).click();
    await waitStatus(card, 'completed');
    expect(await card.locator('[data-testid=result]').textContent()).toContain('Tasks outlive requests.');
  });

  it('cancels a running task, and the tool stops on its abort signal', async () => {
    // At debug level the server logs each tool that stops on its abort signal, with the task id and the reason.
    const own = await startToolServer(['--log-level', 'debug']);
    servers.push(own);
    const page = await connected(own.consoleUrl);
    const card = await callTool(page, 'generate_report', { rows: '1000000000' });
    await waitStatus(card, 'working');
    await expectText(page, 'li.card[data-tool="generate_report"] [data-testid=message]', /aggregated/);
    const taskId = (await card.locator('[data-testid=task-id]').textContent()) ?? '';
    const stopsOf = () => own.logLines().filter((line) => line.msg === 'tool stopped on its abort signal');
    expect(stopsOf()).toEqual([]);
    await card.getByRole('button', { name: 'Cancel generate_report' }).click();
    await waitStatus(card, 'cancelled');
    expect(await card.locator('[data-testid=message]').textContent()).toBe('Cancelled by the client');
    // A finished card's bar stands still: an indeterminate <progress> (position -1) animates.
    expect(await card.locator('progress').evaluate((p) => (p as HTMLProgressElement).position)).toBeGreaterThanOrEqual(
      0,
    );
    await vi.waitFor(
      () => expect(stopsOf()).toMatchObject([{ tool: 'generate_report', taskId, reason: 'cancelled' }]),
      { timeout: 20_000, interval: 50 },
    );
    expect(JSON.parse((await page.evaluate(() => JSON.stringify(Object.keys(localStorage)))) as string)).toEqual([]);
  });

  it('over WebSocket, follows a task through listen notifications', async () => {
    const own = await startToolServer(['--transport', 'ws']);
    servers.push(own);
    expect(own.endpoint).toMatch(/^ws:/);
    const page = await connected(own.consoleUrl);
    await expectText(page, '[data-field="Task updates"]', /subscriptions\/listen/);
    // A mixed board: a direct call, a failing task, one waiting for input, one running, one that completes.
    await waitStatus(await callTool(page, 'test_simple_text'), 'direct');
    const failing = await callTool(page, 'sync_inventory', { pages: '2' });
    const waiting = await callTool(page, 'deploy_service', { service: 'api', version: '2.0.0' });
    const running = await callTool(page, 'generate_report', { rows: '1000000000' });
    const card = await callTool(page, 'checksum_data', { megabytes: '32', seed: 'ws' });
    await waitStatus(card, 'completed');
    expect(await card.locator('[data-testid=result]').textContent()).toContain('seed "ws"');
    await waitStatus(failing, 'failed');
    expect(await failing.locator('[data-testid=error]').textContent()).toContain('malformed page 2');
    expect(await failing.locator('[data-testid=message]').textContent()).toMatch(/^JSON-RPC error -32603: .*page 2/);
    await waitStatus(waiting, 'input_required');
    await expectText(page, 'li.card[data-tool="generate_report"] [data-testid=message]', /aggregated/);
    expect(await statusOf(running)).toBe('working');
    await shot(page, 'board');
  });

  it('survives a reload mid-task: the task is picked up from localStorage and completes', async () => {
    const page = await connected();
    const card = await callTool(page, 'checksum_data', { megabytes: '160', seed: 'reload' });
    await waitStatus(card, 'working');
    const taskId = (await card.locator('[data-testid=task-id]').textContent()) ?? '';
    const stored = await page.evaluate(() => Object.values(localStorage).join(''));
    expect(stored).toContain(taskId);
    await page.reload();
    await expectText(page, '#connection', /Connected/);
    const resumed = page.locator(`li.card[data-task-id="${taskId}"]`);
    await waitStatus(resumed, 'completed');
    expect(await resumed.locator('[data-testid=result]').textContent()).toContain('seed "reload"');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });

  it('says clearly when the token is wrong, and connects with the right one', async () => {
    const own = await startToolServer(['--token', 's3cret']);
    servers.push(own);
    const page = await open(own.consoleUrl);
    await expectText(page, '#connection', /needs a bearer token/);
    await page.getByLabel('Bearer token').fill('wrong');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expectText(page, '#connection', /refused the bearer token \(401 Unauthorized\)/);
    expect(await page.locator('#connection').getAttribute('data-state')).toBe('error');
    await page.getByLabel('Bearer token').fill('s3cret');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expectText(page, '#connection', /Connected to mcp-tasks-tool-server/);
  });

  it('shows a server that died, and recovers when it comes back on the same port', async () => {
    let own = await startToolServer();
    servers.push(own);
    const page = await connected(own.consoleUrl);
    const card = await callTool(page, 'generate_report', { rows: '1000000000' });
    await waitStatus(card, 'working');
    await own.kill();
    await expectText(page, '#connection', /Server unreachable at .* retrying/);
    expect(await page.locator('#connection').getAttribute('data-state')).toBe('lost');
    await waitStatus(card, 'disconnected');
    own = await startToolServer([], own.port);
    servers.push(own);
    await expectText(page, '#connection', /Connected to mcp-tasks-tool-server/);
    // The restarted server kept no tasks (in-memory store): the card says so instead of spinning forever.
    await waitStatus(card, 'lost');
    const again = await callTool(page, 'test_simple_text');
    await waitStatus(again, 'direct');
  });
});
