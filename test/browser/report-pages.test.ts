import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../src/report/write-report.js';
import { SMALL_REWARDS, SMALL_RUN_ID, smallRun } from '../report/fixtures/small-run.js';
import { sparseFailedRun } from '../report/fixtures/sparse-failed-run.js';
import { XSS, XSS_TASK_ID, XSS_TRIAL_ID, xssRun } from '../report/fixtures/xss-run.js';
import {
  OUTPUT_DIR,
  launchChromium,
  openReport,
  pageValue,
  screenshot,
  waitForTaskCount,
  type OpenedReport,
} from './report-browser.js';

const T975_3 = 3.18244630528371; // t(0.975, 3) from tables

let context: BrowserContext;
const files = {
  small: join(OUTPUT_DIR, 'small.html'),
  sparse: join(OUTPUT_DIR, 'sparse.html'),
  xss: join(OUTPUT_DIR, 'xss.html'),
};

beforeAll(async () => {
  context = await launchChromium();
  await writeReport(smallRun(), files.small);
  await writeReport(sparseFailedRun(), files.sparse);
  await writeReport(xssRun(), files.xss);
});

afterAll(async () => {
  await context?.close();
});

const text = (page: Page, selector: string): Promise<string> => page.locator(selector).first().innerText();

function expectClean(opened: OpenedReport): void {
  expect(opened.errors).toEqual([]);
  expect(opened.requests).toEqual([]);
  expect(opened.dialogs).toEqual([]);
}

describe('report of a small run', () => {
  it('shows the header and the aggregates, sortable and filterable', async () => {
    const opened = await openReport(context, files.small);
    const { page } = opened;
    expect(await page.title()).toBe(`evalstream · ${SMALL_RUN_ID}`);
    expect(await text(page, '#run-id')).toBe(SMALL_RUN_ID);
    expect(await text(page, '#count-tasks .n')).toBe('4');
    expect(await text(page, '#count-trials .n')).toBe('12');
    expect(await text(page, '#count-scores .n')).toBe('24');
    expect(await text(page, '#count-errors .n')).toBe('0');
    expect(await text(page, 'header .chips')).toContain('benchmark swe-bench-lite');
    // reward mean over all 12 trials
    const rewardMean = SMALL_REWARDS.flat().reduce((a, b) => a + b, 0) / 12;
    expect(await text(page, '#agg-table tr[data-name="harbor_reward.reward"] td.mean')).toBe(
      rewardMean.toFixed(3),
    );
    // quality: Student-t over the task means 5, 3, 7/3, 4/3 (balanced tasks)
    const means = [5, 3, 7 / 3, 4 / 3];
    const m = means.reduce((a, b) => a + b, 0) / 4;
    const sd = Math.sqrt(means.reduce((a, v) => a + (v - m) ** 2, 0) / 3);
    const half = (T975_3 * sd) / 2;
    expect(await text(page, '#agg-table tr[data-name="llm_judge.quality"] td:nth-child(4)')).toBe(
      `[${(m - half).toFixed(3)}, ${(m + half).toFixed(3)}]`,
    );
    expect(await text(page, '#agg-table tr[data-name="harbor_reward.reward"] .covtext')).toBe('12/12');
    await screenshot(page, 'small-summary');

    await page.click('#agg-table th:has-text("Mean")');
    expect(await page.locator('#agg-table tbody tr').first().getAttribute('data-name')).toBe(
      'llm_judge.quality',
    );
    await page.click('#agg-table th:has-text("Mean")');
    // ascending: the two pass@1 rows (5/12 each) first, rows without a mean last
    expect(await page.locator('#agg-table tbody tr').first().getAttribute('data-name')).toMatch(/\.pass@1$/);
    expect(await text(page, '#agg-table tbody tr:first-child td.mean')).toBe((5 / 12).toFixed(3));
    expect(await page.locator('#agg-table tbody tr').last().getAttribute('data-name')).toMatch(
      /passed$|verdict$/,
    );

    await page.fill('#agg-search', 'pass@');
    expect(await text(page, 'main .toolbar .count')).toBe('6 of 10 rows');
    await page.fill('#agg-search', '');
    await page.click('#agg-kind button[data-kind="view"]');
    expect(await text(page, 'main .toolbar .count')).toBe('0 of 10 rows');
    expect(await text(page, '#agg-table tbody')).toContain('No aggregate matches the filter.');
    expectClean(opened);
    await page.close();
  });

  it('draws the plots with uPlot', async () => {
    const opened = await openReport(context, files.small, '#/plots');
    const { page } = opened;
    expect(await page.locator('.plot-card').count()).toBe(4);
    // one coverage bar per output: passed, reward, quality, verdict
    expect(await page.locator('.coverage-chart .cov-row').count()).toBe(4);
    const reward = page.locator('.plot-card[data-key="harbor_reward.reward"]');
    expect(await reward.locator('.cap').allInnerTexts()).toEqual([
      'DISTRIBUTION OF VALUES',
      'PER-TASK MEAN',
      'PASS@K (MACRO OVER TASKS)',
    ]);
    expect(await reward.locator('.uplot canvas').count()).toBe(3);
    // the readout names the point under the cursor: the highest task mean at the strip's right end
    const strip = reward.locator('.chart.strip .u-over');
    const box = (await strip.boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    expect(await text(page, '.plot-card[data-key="harbor_reward.reward"] .chart.strip .readout')).toMatch(
      /^django__django-11099: /,
    );
    const passk = reward.locator('.chart.passk .u-over');
    const pbox = (await passk.boundingBox())!;
    await page.mouse.move(pbox.x + 2, pbox.y + pbox.height / 2);
    expect(await text(page, '.plot-card[data-key="harbor_reward.reward"] .chart.passk .readout')).toMatch(
      /^pass@1 = /,
    );
    await screenshot(page, 'small-plots', true);
    // clicking a task in the strip opens it
    await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
    await page.waitForSelector('#task-detail');
    expect(await text(page, '#task-detail h2')).toBe('django__django-11099');
    expectClean(opened);
    await page.close();
  });

  it('drills down task → trial → trajectory by clicking, with a hash that reopens the view', async () => {
    const opened = await openReport(context, files.small);
    const { page } = opened;
    await page.click('#tab-tasks');
    expect(await text(page, '#task-count')).toBe('4 tasks · 12 trials');
    await page.click('#task-list .row[data-task="sympy__sympy-20590"]');
    await page.waitForSelector('#task-detail');
    expect(await page.locator('#trial-table tbody tr').count()).toBe(3);
    expect(await text(page, '#task-list .row.sel span:last-child')).toBe('0.500');
    await page.click('#trial-table tr[data-trial="sympy__sympy-20590__t2"]');
    await page.waitForSelector('#trial-detail');
    expect(await text(page, '#trial-detail .output-text')).toBe('Patched sympy__sympy-20590 (attempt 2).');
    expect(await text(page, '#trial-detail table.outputs')).toContain('0.5');
    const trajectory = page.locator('#trial-detail details.trajectory');
    expect(await trajectory.getAttribute('open')).toBeNull();
    await trajectory.locator('summary').first().click();
    const call = trajectory.locator('details.call').first();
    expect(await call.getAttribute('open')).toBeNull();
    await call.locator('summary').click();
    expect(await call.innerText()).toContain('"command": "pytest -x tests/test_1.py"');
    expect(await call.innerText()).toContain('4 passed, 1 failed');
    await screenshot(page, 'small-trial', true);
    expect(await pageValue<string>(page, 'location.hash')).toBe(
      '#/task/sympy__sympy-20590/trial/sympy__sympy-20590__t2',
    );
    await page.reload({ waitUntil: 'commit' });
    await page.waitForSelector('#trial-detail');
    expect(await text(page, '#trial-detail h2')).toContain('sympy__sympy-20590__t2');
    await page.goBack();
    await page.waitForSelector('#task-detail');
    expectClean(opened);
    await page.close();
  });

  it('filters tasks by search and exports the selection as JSON', async () => {
    const opened = await openReport(context, files.small, '#/tasks');
    const { page } = opened;
    await page.fill('#task-search', 'astropy');
    await waitForTaskCount(page, '1 task · 3 trials');
    expect(await pageValue<string>(page, 'location.hash')).toBe('#/tasks?q=astropy');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-selection')]);
    const exported = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
    expect(exported.filters).toEqual({ search: 'astropy', metric: null, status: null });
    expect(exported.task_count).toBe(1);
    expect(exported.tasks[0].task_id).toBe('astropy__astropy-12907');
    expect(
      exported.tasks[0].trials.map(
        (t: { values: Record<string, unknown> }) => t.values['harbor_reward.reward'],
      ),
    ).toEqual(SMALL_REWARDS[2]);
    expect(exported.tasks[0].trials[1].values['llm_judge.verdict']).toBe('correct');
    await screenshot(page, 'small-tasks-filtered');
    expectClean(opened);
    await page.close();
  });
});

describe('report of a sparse run with failed trials', () => {
  it('shows coverage, errors and unestimable rows', async () => {
    const opened = await openReport(context, files.sparse);
    const { page } = opened;
    const row = '#agg-table tr[data-name="harbor_reward.format_ok"]';
    expect(await text(page, `${row} td:nth-child(5)`)).toBe('2');
    expect(await text(page, `${row} td:nth-child(6)`)).toBe('3');
    expect(await text(page, `${row} .covtext`)).toBe('2/5');
    expect(
      await page.locator(`${row} .covbar span`).evaluateAll((spans) => spans.map((s) => s.className)),
    ).toEqual(['s', 'm', 'f']);
    expect(await text(page, '#agg-table tr[data-name="view.format_quality"] .covtext')).toBe('1/2');
    expect(await text(page, '#agg-table tr[data-name="harbor_reward.format_ok.pass@3"] td.mean')).toBe('—');
    expect(await text(page, '#count-errors')).toContain('TimeoutError: 1');
    expect(await text(page, '#error-table')).toContain('ToolCrash');
    await screenshot(page, 'sparse-summary');
    expectClean(opened);
    await page.close();
  });

  it('filters by status and metric and opens the failed trial', async () => {
    const opened = await openReport(context, files.sparse, '#/tasks');
    const { page } = opened;
    const count = (expected: string): Promise<void> => waitForTaskCount(page, expected);
    await page.selectOption('#task-status', 'failed');
    await count('1 task · 1 trial');
    await page.click('#task-list .row[data-task="B"]');
    await page.waitForSelector('#task-detail');
    expect(await page.locator('#task-detail h3').allInnerTexts()).toContain(
      'Trials matching the filters (1 of 3)',
    );
    await page.click('#task-detail button:has-text("Show all trials of the task")');
    expect(await page.locator('#trial-table tbody tr').count()).toBe(3);
    await screenshot(page, 'sparse-task');
    await page.click('#trial-table tr[data-trial="b1"]');
    await page.waitForSelector('#trial-detail');
    expect(await text(page, '#trial-detail .error-box')).toContain('TimeoutError');
    expect(await text(page, '#trial-detail .error-box')).toContain('agent timed out after 600 s');
    expect(await text(page, '#trial-detail .diag')).toContain("trial 'b1' is failed");
    await screenshot(page, 'sparse-failed-trial', true);

    await page.click('#trial-detail .crumbs a:first-child');
    await page.selectOption('#task-metric', 'harbor_reward.format_ok');
    await page.selectOption('#task-status', 'missing');
    // the previous filter also showed one task with one trial, so wait for the list itself
    await page.waitForSelector('#task-list .row[data-task="A"]');
    await count('1 task · 1 trial');
    expect(await page.locator('#task-list .row').getAttribute('data-task')).toBe('A');
    await page.selectOption('#task-metric', '');
    await page.selectOption('#task-status', 'score-failed');
    await count('1 task · 2 trials');
    await page.selectOption('#task-status', 'error');
    await count('1 task · 2 trials');
    await screenshot(page, 'sparse-tasks-filtered');
    expectClean(opened);
    await page.close();
  });
});

async function probeXss(ctx: BrowserContext, shot: string | null): Promise<void> {
  const opened = await openReport(ctx, files.xss);
  const { page } = opened;
  expect(await text(page, '#run-id')).toBe(`run ${XSS.close}`);
  expect(await text(page, 'header')).toContain(XSS.img);
  expect(await text(page, '#count-diagnostics')).toContain('invalid_utf8: 1');
  await page.click('#tab-plots');
  await page.click('#tab-tasks');
  await page.locator('#task-list .row').first().click();
  await page.waitForSelector('#task-detail');
  expect(await text(page, '#task-detail h2')).toBe(XSS_TASK_ID);
  expect(await text(page, '#task-detail .intent')).toBe(`intent ${XSS.script}`);
  expect(await text(page, '#trial-table .diag-cell')).toContain(
    `invalid_utf8 at file ${XSS.close}:3 (byte 10): field ${XSS.img}`,
  );
  await page.locator('#trial-table tr.clickable').first().click();
  await page.waitForSelector('#trial-detail');
  // open the trajectory and tool call by clicking, then every other collapsed block
  await page.click('#trial-detail details.trajectory > summary');
  await page.click('#trial-detail details.call > summary');
  await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
  expect(await text(page, '#trial-detail h2')).toContain(XSS_TRIAL_ID);
  expect(await text(page, '#trial-detail .output-text')).toBe(`output ${XSS.script} ${XSS.img} ${XSS.close}`);
  // tool arguments are shown as JSON: the planted markup appears as a JSON string, quotes escaped
  expect(await text(page, '#trial-detail details.call')).toContain(
    JSON.stringify(`echo '${XSS.img}' ${XSS.close}`),
  );
  expect(await text(page, '#trial-detail details.call')).toContain(`result ${XSS.script}`);
  expect(await text(page, '#trial-detail table.outputs')).toContain(XSS.close);
  expect(await text(page, '#trial-detail .diag')).toContain(`diag ${XSS.img}`);
  expect(await text(page, '#trial-diagnostics h3')).toBe('Input diagnostics (1)');
  expect(await text(page, '#trial-diagnostics li')).toContain(
    `file ${XSS.close}:3 (byte 10): field ${XSS.img}: input diag ${XSS.svg}`,
  );
  if (shot !== null) await screenshot(page, shot, true);
  // nothing ran, nothing was parsed as markup
  expect(await pageValue<unknown>(page, 'window.__xss')).toBeUndefined();
  expect(await page.locator('img').count()).toBe(0);
  expect(await page.locator('svg[onload], [onerror]').count()).toBe(0);
  expect(await page.locator('script').count()).toBe(4);
  // the hash of this trial (ids with markup, encoded) reopens it
  const hash = await pageValue<string>(page, 'location.hash');
  const again = await openReport(ctx, files.xss, hash);
  await again.page.waitForSelector('#trial-detail');
  expect(await text(again.page, '#trial-detail h2')).toContain(XSS_TRIAL_ID);
  expect(await pageValue<unknown>(again.page, 'window.__xss')).toBeUndefined();
  expectClean(opened);
  expectClean(again);
  await page.close();
  await again.page.close();
}

describe('report of a run with planted markup', () => {
  it('renders every probe as text and runs none of them', async () => {
    await probeXss(context, 'xss-trial');
  });

  it('stays inert with its Content-Security-Policy turned off (the DOM code alone)', async () => {
    const noCsp = await launchChromium({ bypassCSP: true });
    try {
      await probeXss(noCsp, null);
    } finally {
      await noCsp.close();
    }
  });
});
