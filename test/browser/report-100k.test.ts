import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../src/report/write-report.js';
import { bigRun } from '../report/fixtures/big-run.js';
import {
  OUTPUT_DIR,
  ensureOutputDir,
  launchChromium,
  openReport,
  pageValue,
  screenshot,
  waitForTaskCount,
} from './report-browser.js';

const TASKS = 10_000;
const PER_TASK = 10;
const file = join(OUTPUT_DIR, 'run-100k.html');
let context: BrowserContext;
let written: { path: string; bytes: number; ms: number };

beforeAll(async () => {
  const bundle = bigRun(TASKS, PER_TASK);
  // this file may run before any other browser test has created the directory
  ensureOutputDir();
  const t0 = performance.now();
  const result = await writeReport(bundle, file);
  written = { ...result, ms: performance.now() - t0 };
  context = await launchChromium();
}, 120_000);

afterAll(async () => {
  await context?.close();
});

describe('report of a 100k-trial run', () => {
  it('opens in under 3 s with the right numbers, and drill-down and filters stay quick', async () => {
    expect(written.bytes).toBe(statSync(file).size);
    const opened = await openReport(context, file);
    const { page } = opened;
    // ms from navigation start to the first view on screen (the page marks it)
    const timing = { ready: await pageValue<number>(page, 'window.__esReady.ready') };
    await page.waitForLoadState('load');
    const parsed = await pageValue<number>(
      page,
      "performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd",
    );
    writeFileSync(
      join(OUTPUT_DIR, 'run-100k-timing.json'),
      `${JSON.stringify({ bytes: written.bytes, writeMs: Math.round(written.ms), readyMs: Math.round(timing.ready), parsedMs: Math.round(parsed) }, null, 2)}\n`,
    );
    console.log(
      `100k-trial report: ${(written.bytes / 1048576).toFixed(1)} MiB written in ${Math.round(written.ms)} ms; ` +
        `first view after ${Math.round(timing.ready)} ms, all blocks parsed after ${Math.round(parsed)} ms`,
    );
    expect(timing.ready).toBeLessThan(3000);

    // Numbers: every 50th trial is dead; the others score reward by the generator's rule.
    let sum = 0;
    let count = 0;
    for (let i = 0; i < TASKS; i += 1) {
      for (let j = 0; j < PER_TASK; j += 1) {
        if ((i * PER_TASK + j) % 50 === 49) continue;
        sum += (i + j) % 4 === 0 ? 1 : 0.25 * ((i * 7 + j) % 4);
        count += 1;
      }
    }
    expect(await page.locator('#count-trials .n').innerText()).toBe('100,000');
    expect(await page.locator('#count-errors .n').innerText()).toBe('2,000');
    const reward = page.locator('#agg-table tr[data-name="harbor_reward.reward"]');
    expect(await reward.locator('td.mean').innerText()).toBe((sum / count).toFixed(3));
    expect(await reward.locator('td:nth-child(5)').innerText()).toBe(count.toLocaleString('en-US'));
    expect(await reward.locator('td:nth-child(4)').innerText()).toMatch(/^\[0\.\d{3}, 0\.\d{3}\]$/);
    await screenshot(page, 'run-100k-summary');

    // Tasks: a virtual list (few DOM rows for 10,000 tasks), filters and drill-down.
    let t = performance.now();
    await page.click('#tab-tasks');
    await waitForTaskCount(page, '10,000 tasks · 100,000 trials');
    const tabMs = performance.now() - t;
    expect(await page.locator('#task-list .row').count()).toBeLessThan(60);
    await page.click('#task-list .row[data-task="task-00003"]');
    await page.waitForSelector('#task-detail');
    expect(await page.locator('#trial-table tbody tr').count()).toBe(PER_TASK);
    await screenshot(page, 'run-100k-tasks');
    await page.locator('#task-list .body').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForSelector('#task-list .row[data-task="task-09999"]');

    t = performance.now();
    await page.selectOption('#task-status', 'failed');
    await waitForTaskCount(page, '2,000 tasks · 2,000 trials');
    const filterMs = performance.now() - t;
    await page.selectOption('#task-status', '');
    await page.fill('#task-search', 'task-09999');
    await waitForTaskCount(page, '1 task · 10 trials');
    await page.click('#task-list .row[data-task="task-09999"]');
    await page.waitForSelector('#task-detail');
    t = performance.now();
    await page.click('#trial-table tr[data-trial="task-09999__9"]');
    await page.waitForSelector('#trial-detail');
    const trialMs = performance.now() - t;
    // trial 99,999 is dead (99,999 % 50 === 49)
    expect(await page.locator('#trial-detail .error-box').innerText()).toContain('TimeoutError');
    // a dead trial beyond the first 200: its scores come from the table, and the page says what to run
    expect(await page.locator('#not-embedded').innerText()).toContain('evalstream inspect');
    expect(await page.locator('#selection summary').innerText()).toBe(
      'Drill-down: details of 300 of 100,000 trials, trajectories of 0 of 0',
    );
    await screenshot(page, 'run-100k-trial');
    console.log(
      `tasks tab ${Math.round(tabMs)} ms, status filter ${Math.round(filterMs)} ms, open trial ${Math.round(trialMs)} ms`,
    );
    expect(opened.errors).toEqual([]);
    expect(opened.requests).toEqual([]);
    await page.close();
  });
});
