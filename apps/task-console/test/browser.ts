/**
 * Test harness: headless Chromium from `@sparticuz/chromium` (unpacked under the temp dir; no download) or
 * `CHROMIUM_PATH`, driven by `playwright-core`; pages that record console errors.
 */
import chromium from '@sparticuz/chromium';
import { type Browser, type ConsoleMessage, type Page, chromium as playwright } from 'playwright-core';

const ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
];

/** Launches headless Chromium. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || (await chromium.executablePath());
  return playwright.launch({ executablePath, headless: true, args: ARGS });
}

/** A page in a fresh context (its own localStorage) with the console errors it logged. */
export interface TrackedPage {
  readonly page: Page;
  /** Console errors and uncaught exceptions, in order. */
  readonly errors: string[];
  /**
   * The errors that are not the browser's own report of a refused HTTP request (`Failed to load resource`, which
   * Chromium logs for every 4xx/5xx or refused connection, even when the page handles it).
   */
  pageErrors(): string[];
}

export async function openPage(browser: Browser, colorScheme: 'light' | 'dark' = 'light'): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return {
    page,
    errors,
    pageErrors: () => errors.filter((e) => !/^Failed to load resource: /.test(e)),
  };
}
