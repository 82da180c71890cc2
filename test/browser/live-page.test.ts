import { OTLPTraceExporter as ProtoHttpExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import type { Summary } from '../../src/model/summary.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import type { OtlpHttpServer } from '../../src/serve/otlp-http-server.js';
import { fakeAgent } from '../serve/fake-agent.js';
import { liveEngineConfig } from '../serve/live-engine-config.js';
import { startEngineServer } from '../serve/start-engine-server.js';
import { launchChromium, pageValue } from './report-browser.js';

let context: BrowserContext;
let engine: LiveEngine;
let http: OtlpHttpServer;
let url: string;

beforeAll(async () => {
  context = await launchChromium();
  engine = new LiveEngine(
    liveEngineConfig({ completion: { settleMs: 20, idleTimeoutMs: 60_000, endMarkerAttribute: null } }),
    createTrialPlanner({ config: parseConfig({}, 'defaults') }),
    [],
  );
  ({ http, url } = await startEngineServer(engine));
});

afterAll(async () => {
  await context?.close();
  await http?.shutdown();
});

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The live page's table: one `[aggregate, mean, count, nan_count]` row per aggregate. */
function tableRows(page: Page): Promise<string[][]> {
  return pageValue<string[][]>(
    page,
    `[...document.querySelectorAll('#rows tr')].map((tr) => [...tr.children].map((td) => td.textContent))`,
  );
}

describe('live page (GET /)', () => {
  it('shows the summary, reads it without task_metric_values, and spaces reads out by the build time', async () => {
    const agent = fakeAgent(new ProtoHttpExporter({ url: `${url}/v1/traces` }));
    agent.runTrial('weather', 'a1');
    agent.runTrial('time', 'a2', { tools: ['get_time', 'get_time'] });
    await agent.provider.forceFlush();
    await until(() => engine.summary().trial_count === 2);

    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // every summary read, answered by the server but reported as taking 150 ms to build: the page
    // must then wait at least 20 × 150 ms = 3 s between reads
    const reads: { at: number; url: string }[] = [];
    await page.route('**/v1/summary*', async (route) => {
      reads.push({ at: Date.now(), url: route.request().url() });
      const response = await route.fetch();
      await route.fulfill({
        response,
        headers: { ...response.headers(), 'server-timing': 'app;dur=1, summary;dur=150' },
      });
    });
    // when the page starts each read, on the page's own clock (the route handler above runs in this
    // process, after a message from the browser whose delay varies by a hundred ms and more on a
    // loaded machine, so its times cannot show a 3 s spacing to the millisecond)
    await page.addInitScript(
      'window.__summaryReads = []; const f = window.fetch.bind(window); window.fetch = (input, init) => { ' +
        "if (String(input).includes('/v1/summary')) window.__summaryReads.push(Date.now()); return f(input, init); };",
    );
    await page.goto(`${url}/`);
    await page.locator('#counts', { hasText: 'trials 2' }).waitFor();

    const summary = (await (await fetch(`${url}/v1/summary`)).json()) as Summary;
    const rows = await tableRows(page);
    expect(rows.map((r) => r[0])).toEqual(summary.scores.scores.map((s) => s.name));
    expect(rows.map((r) => r[2])).toEqual(summary.scores.scores.map((s) => String(s.count)));
    expect(reads[0]?.url).toBe(`${url}/v1/summary?omit=task_metric_values`);
    expect(await pageValue<number[]>(page, '[0, 10, 150].map((c) => window.summaryDelayMs(c))')).toEqual([
      1000, 1000, 3000,
    ]);

    // score events keep coming: the page reads the summary again, but not before 3 s have passed
    for (let i = 3; i <= 6; i++) {
      agent.runTrial('weather', `a${i}`);
      await agent.provider.forceFlush();
      await new Promise((r) => setTimeout(r, 400));
    }
    await page.locator('#counts', { hasText: 'trials 6' }).waitFor({ timeout: 15_000 });
    expect(reads.length).toBeGreaterThanOrEqual(2);
    const started = await pageValue<number[]>(page, 'window.__summaryReads');
    expect(started.length).toBe(reads.length);
    for (let i = 1; i < started.length; i++) {
      expect((started[i] as number) - (started[i - 1] as number)).toBeGreaterThanOrEqual(3000);
    }
    expect(errors).toEqual([]);
    await page.close();
    await agent.provider.shutdown();
  });
});
