// `pnpm compare:inspector`: the same steps in the MCP Inspector's web UI and in this console, against one tool
// server, with a screenshot of each at the same viewport (docs/inspector/*.png, shown in the README's comparison).
// It asserts only what a step needs to go on; it is a reproducible picture, not a test of the Inspector.
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { launchBrowser, openPage } from './browser.js';
import { type RunningInspector, startInspector } from './inspector.js';
import { startToolServer, type ToolServer } from './toolServer.js';

let browser: Browser;
let server: ToolServer;
let inspector: RunningInspector;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startToolServer()]);
  inspector = await startInspector(server.endpoint);
});
afterAll(async () => {
  await inspector?.stop();
  await browser?.close();
  await server?.kill();
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: fileURLToPath(new URL(`../docs/inspector/${name}.png`, import.meta.url)) });

const waitFor = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 30_000, interval: 100 });

it('the MCP Inspector: tools, a task, its messages, a form inside a task', async () => {
  const { page } = await openPage(browser);
  await page.goto(inspector.url);
  // Its connect control is a switch whose track covers the input.
  await page.getByRole('switch').first().check({ force: true });
  await page.getByText('Connected', { exact: true }).waitFor();
  await page.getByText('Tools', { exact: true }).first().click();
  await page.getByText('count_steps', { exact: true }).first().click();
  await page.getByLabel('steps').fill('20');
  await shot(page, 'inspector-tools');

  await page.getByRole('button', { name: 'Execute Tool' }).click();
  await page.getByText('Tasks', { exact: true }).first().click();
  await page
    .getByText(/counted [3-9]\/20 steps/)
    .first()
    .waitFor();
  await shot(page, 'inspector-task');
  await page.getByText('Protocol', { exact: true }).first().click();
  await shot(page, 'inspector-history');
  await page.getByText('Tasks', { exact: true }).first().click();
  await page.getByText('Counted 20 steps').first().waitFor({ timeout: 30_000 });
  await shot(page, 'inspector-result');

  await page.getByPlaceholder('Search tools...').fill('deploy');
  await page.getByText('deploy_service', { exact: true }).first().click();
  await page.getByLabel('service').first().fill('api');
  await page.getByLabel('version').first().fill('2.0.0');
  await page.getByRole('button', { name: 'Execute Tool' }).click();
  await page
    .getByText(/Deploy api@2\.0\.0/)
    .first()
    .waitFor();
  await shot(page, 'inspector-input');
  await page.context().close();
});

it('this console: the same steps', async () => {
  const { page } = await openPage(browser);
  await page.goto(server.consoleUrl);
  await page
    .locator('#connection')
    .getByText(/Connected to/)
    .waitFor();
  await page.locator('#tool-list li[data-tool="count_steps"] button').click();
  const form = page.locator('form.tool-form[data-tool="count_steps"]');
  await form.locator('[name="steps"]').fill('20');
  await shot(page, 'console-tools');

  await form.getByRole('button', { name: 'Call count_steps' }).click();
  const card = page.locator('li.card[data-tool="count_steps"]').first();
  await waitFor(async () => expect(await card.textContent()).toMatch(/counted [3-9]\/20 steps/));
  await shot(page, 'console-task');
  await waitFor(async () => expect(await card.getAttribute('data-status')).toBe('completed'));
  await card.getByRole('button', { name: /Show result/ }).click();
  await shot(page, 'console-result');

  await page.locator('#tool-filter').fill('deploy');
  await page.locator('#tool-list li[data-tool="deploy_service"] button').click();
  const deploy = page.locator('form.tool-form[data-tool="deploy_service"]');
  await deploy.locator('[name="service"]').fill('api');
  await deploy.locator('[name="version"]').fill('2.0.0');
  await deploy.getByRole('button', { name: 'Call deploy_service' }).click();
  await page.locator('form.input-form[data-kind="elicitation"]').first().waitFor();
  await shot(page, 'console-input');
  await page.context().close();
});
