import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ReportBundle, reportModelOfBundle, writeReport } from '../../src/report/write-report.js';
import { buildSummary } from '../../src/summary/build-summary.js';
import { makeScore, makeTrial } from './fixtures/make-trial.js';
import { readEmbedded } from './fixtures/read-embedded.js';
import { smallRun } from './fixtures/small-run.js';
import { xssRun } from './fixtures/xss-run.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'evalstream-report-'));
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');

describe('writeReport', () => {
  it('writes one self-contained file whose size it reports and whose blocks hold the model', async () => {
    const bundle = smallRun();
    const out = join(tmp(), 'report.html');
    const result = await writeReport(bundle, out);
    expect(result.path).toBe(resolve(out));
    expect(result.bytes).toBe(statSync(out).size);
    const html = readFileSync(out, 'utf8');
    const model = await reportModelOfBundle(bundle, { trajectories: 'none' });
    const embedded = readEmbedded(html);
    expect(embedded.data.aggregates).toEqual(model.data.aggregates);
    expect(embedded.data.values).toEqual(model.data.values);
    expect(embedded.tasks).toEqual(model.taskDetails);
    expect(embedded.trials).toHaveLength(12);
    expect(embedded.trials[0]?.trajectory?.steps).toHaveLength(3);
    // Nothing is fetched: no external scripts, styles, images, frames or URLs in attributes/CSS.
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b/i);
    expect(html).not.toMatch(/<script[^>]*\bsrc=/i);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    expect(style).not.toMatch(/url\(|@import/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('pins the one inline script and style by hash in a default-src none CSP', async () => {
    const out = join(tmp(), 'report.html');
    await writeReport(smallRun(), out);
    const html = readFileSync(out, 'utf8');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] as string);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] as string);
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(csp).toContain(`script-src 'sha256-${sha256(scripts[0] as string)}'`);
    expect(csp).toContain(`style-src 'sha256-${sha256(styles[0] as string)}'`);
    // the page script parses (and never assigns innerHTML)
    expect(() => new Function(scripts[0] as string)).not.toThrow();
    expect(scripts[0]).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
  });

  it('keeps planted </script> and markup inside the JSON blocks', async () => {
    const out = join(tmp(), 'report.html');
    await writeReport(xssRun(), out);
    const html = readFileSync(out, 'utf8');
    // exactly the page's own script elements: no planted tag ended a block or opened a new one
    expect(html.match(/<script\b/g)).toHaveLength(4); // es-data, page script, es-tasks, es-d-0
    const { data, trials } = readEmbedded(html);
    expect(data.run.id).toBe('run </script><script>window.__xss = "close"</script>');
    expect(trials[0]?.output?.text).toContain('<img src=x onerror=');
  });

  it('reads referenced ATIF relative to the bundle, and notes unreadable or unsupported traces', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'atif.json'),
      JSON.stringify({
        schema_version: 'ATIF-v1.6',
        agent: { name: 'x', version: '1' },
        steps: [{ step_id: 1, source: 'user', message: 'hi' }],
      }),
    );
    const trace = (ref: string | null, format: string | null, data: unknown = null) => ({
      descriptors: {
        trace: { kind: 'trace', format, ref, data: data as null, description: null, metadata: {} },
      },
      metadata: {},
    });
    const trials = [
      { ...makeTrial('T', 'ok', 'completed'), evidence: trace('atif.json', null) },
      { ...makeTrial('T', 'gone', 'completed'), evidence: trace('missing.json', 'atif') },
      { ...makeTrial('T', 'json', 'completed'), evidence: trace(null, 'json', { a: 1 }) },
      {
        ...makeTrial('T', 'otlp', 'completed'),
        evidence: trace(resolve('test/fixtures/otlp/samples/agentevals__adk_py_v2_default_S2.json'), 'otlp'),
      },
      makeTrial('T', 'none', 'completed'),
    ];
    const scores = trials.map((t) => makeScore('r', 'T', t.id, 'm', [{ name: 'v', value: 1 }]));
    const bundle: ReportBundle = {
      runId: 'r',
      metadata: null,
      tasks: [],
      trials,
      scores,
      summary: buildSummary({ scores, trials }),
    };
    const out = join(dir, 'report.html');
    await writeReport(bundle, out, { bundleDir: dir });
    const { trials: details, data } = readEmbedded(readFileSync(out, 'utf8'));
    expect(details[0]?.trajectory?.steps[0]?.message).toBe('hi');
    expect(details[1]?.trajectoryNote).toMatch(/^Trajectory could not be read: .*missing\.json/);
    expect(details[2]?.trajectoryNote).toBe("Trace in format 'json' is not shown in the report.");
    // OTLP: the normalised tool calls of the ADK sample (two execute_tool spans, city Paris)
    expect(details[3]?.trajectory?.format).toBe('otlp');
    expect(details[3]?.trajectory?.calls.map((c) => c.name)).toEqual(['get_weather', 'get_time']);
    expect(details[3]?.trajectory?.calls[0]?.arguments).toEqual({ city: 'Paris' });
    expect(details[4]?.trajectory).toBeUndefined();
    expect(details[4]?.trajectoryNote).toBeUndefined();
    expect(data.notes).toEqual([]);
  });

  it('stops embedding trajectories at the budget, or embeds none on request, and says so', async () => {
    const bundle = smallRun();
    const fullOut = join(tmp(), 'report.html');
    await writeReport(bundle, fullOut);
    const sizes = readEmbedded(readFileSync(fullOut, 'utf8')).trials.map(
      (t) => JSON.stringify(t.trajectory).length,
    );
    // room for exactly the first three trajectories, in arrival order
    const budgetOut = join(tmp(), 'report.html');
    await writeReport(bundle, budgetOut, { maxTrajectoryBytes: sizes[0]! + sizes[1]! + sizes[2]! });
    const budget = readEmbedded(readFileSync(budgetOut, 'utf8'));
    expect(budget.trials.map((t) => t.trajectory !== undefined)).toEqual(
      Array.from({ length: 12 }, (_, i) => i < 3),
    );
    expect(budget.data.notes).toEqual([
      `9 selected trajectories are left out: the trajectory budget of ${sizes[0]! + sizes[1]! + sizes[2]!} bytes was used up.`,
    ]);
    expect(budget.data.selection.trajectoriesKept).toBe(3);
    expect(budget.data.selection.trajectoriesTotal).toBe(12);
    expect(budget.trials[3]?.trajectoryNote).toMatch(/budget was used up/);

    const noneOut = join(tmp(), 'report.html');
    const none = await writeReport(bundle, noneOut, { trajectories: 'none' });
    const parsed = readEmbedded(readFileSync(noneOut, 'utf8'));
    expect(parsed.trials.every((t) => t.trajectory === undefined)).toBe(true);
    expect(parsed.data.notes).toEqual([
      'Trajectories are not embedded in this report (rebuild with --trajectories auto or all).',
    ]);
    expect(none.bytes).toBeLessThan(statSync(budgetOut).size);
  });

  it('cuts long strings to maxTextChars', async () => {
    const trials = [makeTrial('T', 't', 'completed', { text: 'y'.repeat(50) })];
    const scores = [makeScore('r', 'T', 't', 'm', [{ name: 'v', value: 'z'.repeat(300) }])];
    const bundle: ReportBundle = {
      runId: 'r',
      metadata: null,
      tasks: [],
      trials,
      scores,
      summary: buildSummary({ scores, trials }),
    };
    const out = join(tmp(), 'r.html');
    await writeReport(bundle, out, { maxTextChars: 10 });
    const { trials: details, data } = readEmbedded(readFileSync(out, 'utf8'));
    expect(details[0]?.output?.text).toBe('yyyyyyyyyy… [+40 chars]');
    // a label longer than the 200-char column keeps its full (cut) value in the detail
    expect(data.values[0]?.[0]).toBe(`${'z'.repeat(200)}… [+100 chars]`);
    expect(details[0]?.scores).toEqual([
      { type: 'm', status: 'completed', outputs: [['v', 'zzzzzzzzzz… [+290 chars]']] },
    ]);
  });
});
