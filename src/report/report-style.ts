/**
 * The report page's stylesheet, inlined into `report.html` (no external fonts or assets).
 *
 * @example
 * `<style>${REPORT_STYLE}</style>`;
 */
export const REPORT_STYLE = String.raw`
:root {
  --fg: #1d2430; --muted: #5f6b7a; --faint: #8a94a3; --line: #e3e7ed; --line-strong: #cfd6df;
  --bg: #f5f7fa; --card: #ffffff; --accent: #2b63d9; --accent-soft: #e8effc;
  --ok: #2f9e62; --warn: #e0a21b; --bad: #d2433f; --none: #c9d1dc;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--fg); background: var(--bg); -webkit-font-smoothing: antialiased; }
.wrap { max-width: 1360px; margin: 0 auto; padding: 0 24px; }
header.top { background: var(--card); border-bottom: 1px solid var(--line); padding: 18px 0 14px; }
.brand { font-size: 12px; letter-spacing: .06em; text-transform: uppercase; color: var(--faint); font-weight: 600; }
h1 { font-size: 22px; margin: 2px 0 6px; font-weight: 650; word-break: break-all; }
h2 { font-size: 16px; margin: 22px 0 10px; font-weight: 650; }
h3 { font-size: 14px; margin: 16px 0 8px; font-weight: 650; }
.meta-line { color: var(--muted); display: flex; flex-wrap: wrap; gap: 4px 18px; }
.meta-line b { color: var(--fg); font-weight: 600; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; }
.chip { background: var(--accent-soft); color: #1f4ea8; border-radius: 999px; padding: 1px 10px; font-size: 12.5px; }
.chip .k { color: #5876b5; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 14px; }
.card { background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; min-width: 130px; }
.card .n { font-size: 22px; font-weight: 650; font-variant-numeric: tabular-nums; }
.card .l { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.card .sub { font-size: 12px; color: var(--muted); }
.card.bad .n { color: var(--bad); }
.notes { margin-top: 10px; color: #8a5a00; background: #fff7e0; border: 1px solid #f3e2b3; border-radius: 6px; padding: 6px 10px; font-size: 13px; }
.selection { margin-top: 8px; font-size: 13px; color: #444; }
.selection summary { cursor: pointer; color: #555; }
.selection div { margin: 4px 0 0 14px; }
nav.tabs { background: var(--card); border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 5; }
nav.tabs .wrap { display: flex; gap: 4px; }
nav.tabs a { display: inline-block; padding: 10px 14px; color: var(--muted); text-decoration: none; font-weight: 600; border-bottom: 2px solid transparent; }
nav.tabs a:hover { color: var(--fg); }
nav.tabs a.on { color: var(--accent); border-bottom-color: var(--accent); }
main { padding: 6px 0 48px; }
.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; margin: 16px 0 10px; }
.toolbar .grow { flex: 1; }
.toolbar .count { color: var(--muted); font-size: 13px; }
input[type=search], select { font: inherit; border: 1px solid var(--line-strong); border-radius: 6px; padding: 5px 9px; background: #fff; color: var(--fg); }
input[type=search] { min-width: 260px; }
input[type=search]:focus, select:focus { outline: 2px solid var(--accent-soft); border-color: var(--accent); }
button { font: inherit; border: 1px solid var(--line-strong); background: #fff; border-radius: 6px; padding: 5px 12px; cursor: pointer; color: var(--fg); }
button:hover { border-color: var(--accent); color: var(--accent); }
.seg { display: inline-flex; border: 1px solid var(--line-strong); border-radius: 6px; overflow: hidden; }
.seg button { border: 0; border-radius: 0; border-right: 1px solid var(--line-strong); padding: 5px 11px; }
.seg button:last-child { border-right: 0; }
.seg button.on { background: var(--accent); color: #fff; }
table.grid { width: 100%; border-collapse: separate; border-spacing: 0; background: var(--card); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
table.grid th, table.grid td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: middle; }
table.grid tr:last-child td { border-bottom: 0; }
table.grid th { background: #f0f3f7; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); font-weight: 650; white-space: nowrap; user-select: none; }
table.grid th.sortable { cursor: pointer; }
table.grid th.sortable:hover { color: var(--fg); }
table.grid th .arrow { color: var(--accent); margin-left: 3px; }
table.grid td.num, table.grid th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.grid tbody tr:hover td { background: #f7f9fc; }
table.grid tr.clickable { cursor: pointer; }
.name { font-family: var(--mono); font-size: 12.5px; word-break: break-all; }
a.name { color: var(--accent); text-decoration: none; }
a.name:hover { text-decoration: underline; }
.kind { font-size: 11px; display: inline-block; padding: 1px 7px; border-radius: 4px; background: #eef1f5; color: var(--muted); white-space: nowrap; }
.kind.view { background: #f1ebfb; color: #6a3fb5; }
.kind.pass { background: #e6f4ec; color: #22744a; }
.kind.scalar, .kind.other { background: #fdf2e3; color: #98600c; }
.muted { color: var(--muted); }
.faint { color: var(--faint); }
.ci { color: var(--muted); font-size: 12.5px; }
.covbar { display: inline-flex; width: 120px; height: 9px; border-radius: 5px; overflow: hidden; background: var(--none); vertical-align: middle; }
.covbar span { display: block; height: 100%; }
.covbar .s { background: var(--ok); } .covbar .m { background: var(--warn); } .covbar .f { background: var(--bad); }
.covtext { font-size: 12px; color: var(--muted); margin-left: 8px; font-variant-numeric: tabular-nums; }
.legend { display: flex; gap: 16px; font-size: 12.5px; color: var(--muted); margin: 10px 2px; flex-wrap: wrap; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
.footnote { font-size: 12.5px; color: var(--muted); margin: 8px 2px; }
.panel { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; }
.plot-card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px 8px; margin-bottom: 14px; }
.plot-card h3 { margin: 0 0 2px; display: flex; gap: 10px; align-items: center; }
.plot-row { display: flex; flex-wrap: wrap; gap: 18px; }
.plot { flex: 1 1 360px; min-width: 300px; }
.plot .cap { font-size: 12px; color: var(--muted); margin: 6px 0 2px; font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
.chart .readout { font-size: 12px; color: var(--muted); min-height: 17px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 400px; }
.chart .u-axis { font-size: 11px; }
.hbars .hbar, .coverage-chart .cov-row { display: flex; align-items: center; gap: 8px; font-size: 12px; margin: 3px 0; }
.hbar .l, .cov-row .l { text-align: right; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: var(--muted); }
.hbar .l { width: 120px; } .cov-row .l { width: 300px; }
.hbar .b { flex: 0 0 220px; height: 12px; background: #eef1f6; border-radius: 3px; }
.hbar .b span { display: block; height: 100%; background: #5b8ce6; border-radius: 3px; }
.cov-row .covbar { flex: 0 0 460px; }
.cov-row .n { color: var(--muted); }
.split { display: grid; grid-template-columns: minmax(360px, 5fr) 7fr; gap: 16px; align-items: start; }
@media (max-width: 980px) { .split { grid-template-columns: 1fr; } }
.vt { background: var(--card); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.vt .head, .vt .row { display: grid; align-items: center; padding: 0 10px; column-gap: 10px; }
.vt .head { background: #f0f3f7; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); font-weight: 650; height: 32px; border-bottom: 1px solid var(--line); user-select: none; }
.vt .head span { cursor: pointer; white-space: nowrap; }
.vt .head span:hover { color: var(--fg); }
.vt .body { overflow-y: auto; position: relative; height: 560px; }
.vt .row { position: absolute; left: 0; right: 0; height: 30px; border-bottom: 1px solid #eef1f4; cursor: pointer; font-variant-numeric: tabular-nums; }
.vt .row:hover { background: #f5f8fd; }
.vt .row.sel { background: var(--accent-soft); }
.vt .row span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.vt .row .r, .vt .head .r { text-align: right; }
.vt .empty { padding: 24px; color: var(--muted); text-align: center; }
.crumbs { font-size: 13px; color: var(--muted); margin-bottom: 8px; word-break: break-all; }
.crumbs a { color: var(--accent); text-decoration: none; }
.crumbs a:hover { text-decoration: underline; }
.detail h2 { margin-top: 0; font-family: var(--mono); font-size: 15px; word-break: break-all; }
.badge { display: inline-block; font-size: 11.5px; font-weight: 650; padding: 1px 8px; border-radius: 999px; background: #eef1f5; color: var(--muted); white-space: nowrap; }
.badge.c { background: #e3f4ea; color: #1f7a47; } .badge.p { background: #fff1d6; color: #8f5d00; }
.badge.f { background: #fde5e4; color: #a52a26; } .badge.e { background: #fde5e4; color: #a52a26; }
.badge.w { background: #fff1d6; color: #8f5d00; }
.kv { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; font-size: 13px; }
.kv dt { color: var(--muted); } .kv dd { margin: 0; font-variant-numeric: tabular-nums; word-break: break-word; }
pre { font-family: var(--mono); font-size: 12.5px; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 4px 0; white-space: pre-wrap; word-break: break-word; max-height: 420px; overflow: auto; }
.error-box { border: 1px solid #f3c5c3; background: #fff6f5; border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.error-box .t { color: #a52a26; font-weight: 650; }
.val { font-family: var(--mono); font-size: 12.5px; }
.val.label { background: #eef1f5; border-radius: 4px; padding: 0 5px; }
.val.none { color: var(--faint); font-family: inherit; }
.val.nf { color: #a52a26; }
details { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; background: #fff; }
details > summary { cursor: pointer; padding: 6px 10px; color: var(--fg); font-weight: 600; list-style-position: inside; }
details > summary .muted { font-weight: 400; }
details > .in { padding: 4px 12px 10px; }
.step { border-left: 3px solid var(--line-strong); padding: 4px 0 4px 12px; margin: 10px 0; }
.step.agent { border-left-color: #5b8ce6; } .step.user { border-left-color: #2f9e62; } .step.system { border-left-color: #a0a9b6; }
.step .sh { font-size: 12px; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
.call { margin: 6px 0; }
.call.err > summary { color: #a52a26; }
.diag, .idiag { font-size: 13px; margin: 4px 0; }
.diag .sev, .idiag .sev { font-weight: 650; text-transform: uppercase; font-size: 11px; margin-right: 6px; }
.diag .sev.error { color: #a52a26; } .diag .sev.warning, .idiag .sev { color: #8f5d00; } .diag .sev.info { color: var(--muted); }
.hint { color: var(--muted); padding: 40px 10px; text-align: center; }
.section { margin-top: 14px; }
.more { margin-top: 8px; }
`;
