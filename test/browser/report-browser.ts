import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where browser tests put reports and screenshots (gitignored). */
export const OUTPUT_DIR = resolve('test-output/report');

/**
 * The Chromium the tests drive: `EVALSTREAM_CHROMIUM` when set (any Chromium build), else the one
 * `@sparticuz/chromium` ships inside its npm package (unpacked once into the temp directory), so
 * `npm ci && npm test` needs no system browser.
 */
export async function chromiumExecutable(): Promise<string> {
  const fromEnv = process.env['EVALSTREAM_CHROMIUM'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}

/** Creates the directory the browser tests write their reports and screenshots to; returns it. */
export function ensureOutputDir(): string {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  return OUTPUT_DIR;
}

/**
 * Launches Chromium headless with a fresh profile (no network services, no sandbox).
 * `bypassCSP` turns the report's Content-Security-Policy off, to test what the page's own DOM code
 * does without that second line of defence.
 */
export async function launchChromium(options: { bypassCSP?: boolean } = {}): Promise<BrowserContext> {
  const executablePath = await chromiumExecutable();
  ensureOutputDir();
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'evalstream-chromium-')), {
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1440, height: 1000 },
    acceptDownloads: true,
    bypassCSP: options.bypassCSP ?? false,
  });
}

/** A report page and everything it did that a report must never do. */
export interface OpenedReport {
  page: Page;
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Requests to anything but the report file itself (or blob: exports). */
  requests: string[];
  dialogs: string[];
}

/** Opens a report file (optionally at a hash) and waits until its first view is on screen. */
export async function openReport(context: BrowserContext, file: string, hash = ''): Promise<OpenedReport> {
  const page = await context.newPage();
  const opened: OpenedReport = { page, errors: [], requests: [], dialogs: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') opened.errors.push(m.text());
  });
  page.on('pageerror', (e) => opened.errors.push(e.message));
  const url = `file://${resolve(file)}`;
  page.on('request', (r) => {
    if (r.url().split('#')[0] !== url && !r.url().startsWith('blob:')) opened.requests.push(r.url());
  });
  page.on('dialog', (d) => {
    opened.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(url + hash, { waitUntil: 'commit' });
  await page.waitForSelector('html[data-ready="1"]', { timeout: 30_000 });
  return opened;
}

/**
 * Saves a screenshot under the output folder. `fullPage` grows the viewport to the page's height
 * first (a real full-height layout: sticky elements stay at the top instead of being stitched in).
 */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  const path = join(OUTPUT_DIR, `${name}.png`);
  const size = page.viewportSize() ?? { width: 1440, height: 1000 };
  if (fullPage) {
    const height = await pageValue<number>(page, 'document.documentElement.scrollHeight');
    await page.setViewportSize({ width: size.width, height: Math.max(size.height, Math.min(height, 6000)) });
  }
  await page.screenshot({ path });
  if (fullPage) await page.setViewportSize(size);
  return path;
}

/**
 * Evaluates a JavaScript expression in the page (a string, since this project's TypeScript has no DOM
 * types) and returns its JSON-serialisable value.
 */
export async function pageValue<T>(page: Page, expression: string): Promise<T> {
  return (await page.evaluate(expression)) as T;
}

/** Waits until `#task-count` reads exactly `expected` (a locator: the page's CSP forbids eval). */
export async function waitForTaskCount(page: Page, expected: string): Promise<void> {
  const exact = new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await page.locator('#task-count', { hasText: exact }).waitFor();
}
