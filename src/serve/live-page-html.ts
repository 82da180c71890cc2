import { clientBundle } from '../report/client-bundle.js';

/**
 * The live page served at `GET /`: a self-contained HTML page that loads `/v1/summary` (without
 * `task_metric_values`, which it does not show), re-fetches it on score events from `/v1/events`, and
 * renders the aggregates as text (never as HTML). It reads the summary at most once per second, and
 * at most once per 20 times the server's build time (its `Server-Timing`), so that an open page costs
 * the server at most ~5 % of its time however large the run grows (`summaryDelayMs`, exposed on
 * `window` for tests). Its script is `src/report/client/live-page.ts`, bundled at build time.
 *
 * @example
 * res.end(livePageHtml());
 */
export function livePageHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>evalstream live</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#1d2330;background:#f7f8fa}
h1{font-size:20px;margin:0 0 4px} .muted{color:#667085} table{border-collapse:collapse;margin-top:16px;background:#fff;min-width:640px}
th,td{padding:6px 12px;border-bottom:1px solid #e4e7ec;text-align:right} th:first-child,td:first-child{text-align:left}
th{background:#eef1f6;font-weight:600} .dot{display:inline-block;width:8px;height:8px;border-radius:50%;background:#d92d20;margin-right:6px}
.dot.on{background:#12b76a}
</style></head><body>
<h1>evalstream live</h1>
<div class="muted"><span id="dot" class="dot"></span><span id="status">connecting…</span></div>
<div id="counts" class="muted"></div>
<table><thead><tr><th>aggregate</th><th>mean</th><th>count</th><th>nan_count</th></tr></thead><tbody id="rows"></tbody></table>
<script>${clientBundle('live-page.js')}</script></body></html>
`;
}
