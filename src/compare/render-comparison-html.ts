import { createHash } from 'node:crypto';
import { REPORT_STYLE } from '../report/report-style.js';
import { comparisonFormat } from './format-comparison-text.js';
import type { Flip, OutputComparison, RunComparison } from './output-comparison.js';
import { countOf } from '../util/count-of.js';

const { stat, interval, pValue } = comparisonFormat;

const PAGE_STYLE = `${REPORT_STYLE}
.verdict-improved { color: var(--ok); font-weight: 650; }
.verdict-regressed { color: var(--bad); font-weight: 650; }
.verdict-inconclusive { color: var(--muted); font-weight: 650; }
.flips { font-family: var(--mono); font-size: 12.5px; word-break: break-all; }
`;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] as string);
}

/**
 * The comparison as a self-contained static HTML page in the report's style: no script, the
 * stylesheet inline and pinned by a Content-Security-Policy, every value escaped.
 *
 * @example
 * await writeFile('compare.html', renderComparisonHtml(compareRuns(a, b)));
 */
export function renderComparisonHtml(c: RunComparison): string {
  const e = escapeHtml;
  const pct = `${Math.round(c.confidence * 100)}%`;
  const hash = createHash('sha256').update(PAGE_STYLE, 'utf8').digest('base64');
  const csp = `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`;
  const count = (v: string): number => c.outputs.filter((o) => o.verdict === v).length;
  const card = (n: number | string, label: string, bad = false): string =>
    `<div class="card${bad ? ' bad' : ''}"><div class="n">${e(String(n))}</div><div class="l">${e(label)}</div></div>`;
  const rows = c.outputs.map((o) => summaryRow(o)).join('\n');
  const details = c.outputs.map((o) => detail(o, pct)).join('\n');
  const side = (label: string, r: RunComparison['a']): string =>
    `<span>${label} <b>${e(r.source)}</b>${r.runId === null ? '' : ` (run ${e(r.runId)})`}` +
    (r.diagnostics ? ` · ${r.diagnostics} input diagnostics` : '') +
    '</span>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="generator" content="evalstream">
<title>evalstream compare</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header class="top"><div class="wrap">
<div class="brand">evalstream compare</div>
<h1>${e(c.b.source)} vs ${e(c.a.source)}</h1>
<div class="meta-line">${side('A', c.a)}${side('B', c.b)}<span>differences are <b>B − A</b></span><span>α <b>${e(String(c.alpha))}</b></span><span>seed <b>${e(String(c.seed))}</b></span></div>
<div class="cards">${card(c.outputs.length, 'outputs compared')}${card(count('improved'), 'improved')}${card(count('regressed'), 'regressed', count('regressed') > 0)}${card(count('inconclusive'), 'inconclusive')}</div>
</div></header>
<main><div class="wrap">
<h2>Outputs</h2>
<table class="grid">
<thead><tr><th>output</th><th class="num">mean A</th><th class="num">mean B</th><th class="num">B − A</th><th class="num">clustered ${e(pct)}</th><th class="num">bootstrap ${e(pct)}</th><th class="num">p</th><th class="num">Holm</th><th class="num">BH</th><th class="num">MDE</th><th>verdict</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${details}
<div class="section panel"><b>Rule.</b> ${e(c.rule)}</div>
${c.outputsOnlyInA.length > 0 ? `<div class="section notes">Outputs only in A: ${e(c.outputsOnlyInA.join(', '))}</div>` : ''}
${c.outputsOnlyInB.length > 0 ? `<div class="section notes">Outputs only in B: ${e(c.outputsOnlyInB.join(', '))}</div>` : ''}
${c.outputsWithoutValues.length > 0 ? `<div class="section notes">Outputs without values in a run (not compared): ${e(c.outputsWithoutValues.join(', '))}</div>` : ''}
</div></main>
</body>
</html>
`;

  function summaryRow(o: OutputComparison): string {
    const num = (text: string): string => `<td class="num">${e(text)}</td>`;
    return (
      `<tr><td>${e(o.name)} <span class="kind">${o.binary ? 'binary' : 'numeric'}</span></td>` +
      num(stat(o.meanA)) +
      num(stat(o.meanB)) +
      num(stat(o.difference, true)) +
      num(interval(o.clustered)) +
      num(interval(o.bootstrap)) +
      num(pValue(o.pValue)) +
      num(pValue(o.holm)) +
      num(pValue(o.benjaminiHochberg)) +
      num(stat(o.minimumDetectableEffect)) +
      `<td class="verdict-${o.verdict}">${e(o.verdict)}</td></tr>`
    );
  }

  function detail(o: OutputComparison, level: string): string {
    const items = [
      `${o.higherIsBetter ? 'higher' : 'lower'} is better; ${countOf(o.nA, 'value')} in A, ${o.nB} in B; ${countOf(o.tasks, 'task')} paired, ${countOf(o.pairs, 'pair')}`,
      `difference ${stat(o.difference, true)}, clustered ${level} ${interval(o.clustered)}, bootstrap ${level} ${interval(o.bootstrap)}`,
      o.mcnemar === null
        ? null
        : `exact McNemar p ${pValue(o.mcnemar.pValue)} (pass→fail ${o.mcnemar.passToFail}, fail→pass ${o.mcnemar.failToPass})`,
      `sign test p ${pValue(o.sign.pValue)} (${o.sign.positive} up, ${o.sign.negative} down, ${o.sign.ties} equal); permutation p ${pValue(o.permutation.pValue)}${o.permutation.exact ? ' (exact)' : ` (${o.permutation.resamples} resamples)`}`,
      `minimum detectable effect at 80% power: ${stat(o.minimumDetectableEffect)}`,
    ].filter((t) => t !== null);
    const flips =
      o.flips === null
        ? ''
        : `<p>pass→fail (${o.flips.passToFail.length}): <span class="flips">${e(flipList(o.flips.passToFail))}</span></p>` +
          `<p>fail→pass (${o.flips.failToPass.length}): <span class="flips">${e(flipList(o.flips.failToPass))}</span></p>`;
    const only =
      (o.onlyInA.length > 0
        ? `<p>tasks only in A: <span class="flips">${e(o.onlyInA.join(', '))}</span></p>`
        : '') +
      (o.onlyInB.length > 0
        ? `<p>tasks only in B: <span class="flips">${e(o.onlyInB.join(', '))}</span></p>`
        : '');
    return `<div class="section panel"><h3>${e(o.name)} — <span class="verdict-${o.verdict}">${e(o.verdict)}</span></h3><ul>${items.map((t) => `<li>${e(t)}</li>`).join('')}</ul>${flips}${only}</div>`;
  }
}

function flipList(flips: readonly Flip[]): string {
  return flips.length === 0 ? '—' : flips.map((f) => `${f.task} (${f.trialA} → ${f.trialB})`).join(', ');
}
