import { D, S, X, go, hashQuery, replaceHash, taskSpec, trialDetailData, whenParsed } from './app.js';
import { coverageChart, histogramChart, passAtKChart, stripChart, valueCountsChart } from './charts.js';
import { format } from '../format.js';
import {
  badge,
  cell,
  clear,
  covBar,
  details,
  downloadJson,
  enc,
  dash,
  appendKids,
  grid,
  h,
  jsonDetails,
  type Kids,
  muted,
  pre,
  pretty,
  safeFileName,
  statusName,
  unbox,
  valueEl,
} from './dom.js';

/**
 * Report page, part 3 of 4: the views (header, aggregates, plots, task explorer, task and trial
 * detail). They read the globals `D` (embedded data), `X` (derived indexes) and `S` (view state)
 * defined in part 4.
 *
 * @example
 * import { h } from './dom.js';
 */
export const STATUS_OPTIONS = [
  ['', 'Any status'],
  ['completed', 'Trial completed'],
  ['partial', 'Trial partial'],
  ['failed', 'Trial failed'],
  ['error', 'Trial has error'],
  ['score-failed', 'Score failed'],
  ['missing', 'Output missing'],
  ['scored', 'Output scored'],
];

// ---------------------------------------------------------------- header

export function renderHeader() {
  const r = D.run,
    c = D.counts;
  const target = r.target
    ? [r.target.name || '(unnamed)', r.target.kind && `(${r.target.kind})`, r.target.version]
        .filter(Boolean)
        .join(' ')
    : null;
  const facts = [
    ['Target', target],
    ['Started', format.time(r.startedAt)],
    ['Finished', format.time(r.finishedAt)],
    ['Duration', format.duration(r.durationSec)],
    ['Version', r.sdkVersion],
  ];
  const meta = facts.filter((f) => f[1]).map((f) => h('span', null, [`${f[0]} `, h('b', { text: f[1] })]));
  const ts = c.trialStatus;
  const countText = (e) => `${e[0]}: ${format.int(e[1])}`;
  const errorSubs = c.errorsByType.slice(0, 3).map(countText);
  if (c.errorsByType.length > 3) errorSubs.push(`+${c.errorsByType.length - 3} more types`);
  const card = (label, n, subs: string[] = [], cls = '') =>
    h('div', { class: `card${cls ? ' ' + cls : ''}`, id: `count-${label.toLowerCase()}` }, [
      h('div', { class: 'l', text: label }),
      h('div', { class: 'n', text: format.int(n) }),
      subs.map((text) => h('div', { class: 'sub', text })),
    ]);
  const chip = (l) => h('span', { class: 'chip' }, [h('span', { class: 'k', text: `${l[0]} ` }), l[1]]);
  const trialSub = `${format.int(ts.completed)} completed · ${format.int(ts.partial)} partial · ${format.int(ts.failed)} failed`;
  return h(
    'header',
    { class: 'top' },
    h('div', { class: 'wrap' }, [
      h('div', { class: 'brand', text: 'evalstream report' }),
      h('h1', { id: 'run-id', text: r.id }),
      h('div', { class: 'meta-line' }, meta),
      r.labels.length > 0 && h('div', { class: 'chips' }, r.labels.map(chip)),
      h('div', { class: 'cards' }, [
        card('Tasks', c.tasks),
        card('Trials', c.trials, [trialSub]),
        card('Scores', c.scores, [`${format.int(c.scoreStatus.failed)} failed`]),
        card('Errors', c.errors, errorSubs, c.errors ? 'bad' : ''),
        c.diagnostics > 0 && card('Diagnostics', c.diagnostics, c.diagnosticsByCode.map(countText)),
      ]),
      D.notes.length > 0 &&
        h(
          'div',
          { class: 'notes' },
          D.notes.map((n) => h('div', { text: n })),
        ),
      selectionEl(),
    ]),
  );
}

/** What the report kept of each trial, and how to get the rest. */
export function selectionEl() {
  const sel = D.selection;
  const kept = D.detail.rows.length;
  return h('details', { class: 'selection', id: 'selection' }, [
    h('summary', {
      text: `Drill-down: details of ${format.int(kept)} of ${format.int(X.nTrials)} trials, trajectories of ${format.int(sel.trajectoriesKept)} of ${format.int(sel.trajectoriesTotal)}`,
    }),
    keptEls(),
  ]);
}

/** The rule that chose the trials kept in detail, and how to get the others. */
function keptEls() {
  return [h('div', { text: `Kept: ${D.selection.rule}.` }), h('div', { text: D.selection.howToGetTheRest })];
}

// ---------------------------------------------------------------- aggregates

export const AGG_COLUMNS: [string, string, boolean][] = [
  ['name', 'Name', false],
  ['kind', 'Kind', false],
  ['mean', 'Mean', true],
  ['ci', '95% CI', true],
  ['count', 'Count', true],
  ['nanCount', 'NaN count', true],
  ['coverage', 'Coverage', false],
  ['min', 'Min', true],
  ['max', 'Max', true],
  ['stdDev', 'Std dev', true],
];

export function kindLabel(a) {
  if (a.kind === 'output' && X.outIndex.has(a.key)) return D.outputs[X.outIndex.get(a.key)].kind;
  return a.kind;
}

export function aggSortValue(a, key) {
  if (key === 'name') return a.name;
  if (key === 'kind') return kindLabel(a);
  if (key === 'mean') return a.kind === 'scalar' ? a.value : a.mean;
  if (key === 'ci') return a.ci ? a.ci.hi - a.ci.lo : null;
  if (key === 'coverage') {
    if (a.coverage) return a.coverage.total ? a.coverage.scored / a.coverage.total : null;
    const total = (a.count || 0) + (a.nanCount || 0);
    return total ? (a.count || 0) / total : null;
  }
  return a[key];
}

export function renderSummary(root) {
  const search = h('input', {
    type: 'search',
    id: 'agg-search',
    placeholder: 'Filter aggregates by name…',
    value: S.aggQ,
  });
  const kinds = [
    ['', 'All'],
    ['output', 'Outputs'],
    ['view', 'Views'],
    ['pass@k', 'pass@k'],
    ['other', 'Other'],
  ];
  const seg = h(
    'div',
    { class: 'seg', id: 'agg-kind' },
    kinds.map(([kind, text]) =>
      h('button', { 'data-kind': kind, text, onclick: () => redraw({ aggKind: kind }) }),
    ),
  );
  const countEl = h('span', { class: 'count' });
  const tbody = h('tbody');
  const headRow = h('tr');
  const table = h('table', { class: 'grid', id: 'agg-table' }, [h('thead', null, headRow), tbody]);

  function drawHead() {
    clear(headRow);
    for (const [key, label, numeric] of AGG_COLUMNS) {
      const arrow = S.aggSort === key && h('span', { class: 'arrow', text: S.aggDir > 0 ? '▲' : '▼' });
      const onclick = () =>
        redraw(S.aggSort === key ? { aggDir: -S.aggDir } : { aggSort: key, aggDir: numeric ? -1 : 1 });
      const props = { class: `sortable${numeric ? ' num' : ''}`, title: `Sort by ${label}`, onclick };
      headRow.appendChild(h('th', props, [label, arrow]));
    }
  }
  function redraw(change: Partial<typeof S>) {
    Object.assign(S, change);
    draw();
  }
  function draw() {
    drawHead();
    for (const b of seg.children) b.classList.toggle('on', b.getAttribute('data-kind') === S.aggKind);
    const q = S.aggQ.trim().toLowerCase();
    let rows = D.aggregates.filter(function (a) {
      if (q && a.name.toLowerCase().indexOf(q) < 0) return false;
      if (!S.aggKind) return true;
      if (S.aggKind === 'other') return a.kind === 'scalar' || a.kind === 'other';
      return a.kind === S.aggKind;
    });
    if (S.aggSort) {
      const key = S.aggSort,
        dir = S.aggDir;
      rows = rows.slice().sort((p, q2) => compareKeys(aggSortValue(p, key), aggSortValue(q2, key), dir));
    }
    const none = h('td', {
      colspan: AGG_COLUMNS.length,
      class: 'muted',
      text: 'No aggregate matches the filter.',
    });
    appendKids(clear(tbody), rows.length ? rows.map(aggRow) : h('tr', null, none));
    countEl.textContent = `${rows.length} of ${D.aggregates.length} rows`;
  }
  search.addEventListener('input', () => redraw({ aggQ: search.value }));
  const legend = [
    ['#2f9e62', 'scored / measured'],
    ['#e0a21b', 'missing (output omitted)'],
    ['#d2433f', 'failed (trial or metric)'],
    ['#c9d1dc', 'unmeasured (views, pass@k: nan_count)'],
  ].map(([background, label]) => h('span', null, [h('i', { style: { background } }), label]));
  const errorRow = (e) => h('tr', null, [cell('name', e[0]), cell('num', format.int(e[1]))]);
  appendKids(root, [
    h('div', { class: 'toolbar' }, [search, seg, h('span', { class: 'grow' }), countEl]),
    table,
    h('div', { class: 'legend' }, legend),
    h('div', {
      class: 'footnote',
      text: '95% CI: outputs use a Student-t interval with the standard error clustered by task (CR1, df = tasks − 1; equal to the t-interval over per-task means when every task has the same number of trials), or over the repeats when there is one task; pass@k rows use Student-t over the per-task estimates; views over their opportunities. Shown only with at least 3 tasks or repeats; hover an interval for its method.',
    }),
    D.counts.errorsByType.length > 0 && [
      h('h2', { text: 'Errors by type' }),
      grid(
        { class: 'grid', id: 'error-table' },
        ['Error type', ['Trials', 'num']],
        D.counts.errorsByType.map(errorRow),
      ),
    ],
  ]);
  draw();
}

export function aggRow(a) {
  const name = a.key
    ? h('a', { class: 'name', href: `#/plots/${enc(a.key)}`, title: `Plots of ${a.key}`, text: a.name })
    : h('span', { class: 'name', text: a.name });
  const mean = a.kind === 'scalar' ? a.value : a.mean;
  const noCi = 'No interval: fewer than 3 tasks/repeats, or a backend figure';
  const ci = a.ci
    ? h('span', {
        class: 'ci',
        title: a.ci.method,
        text: `[${format.stat(a.ci.lo)}, ${format.stat(a.ci.hi)}]`,
      })
    : h('span', { class: 'faint', title: noCi, text: '—' });
  let cov;
  if (a.coverage) {
    const c = a.coverage;
    const title = `scored ${c.scored} · missing ${c.missing} · failed ${c.failed} of ${c.total}`;
    const text = `${format.int(c.scored)}/${format.int(c.total)}`;
    cov = coverageEls([c.scored, c.missing, c.failed], c.total, title, text);
  } else if (a.count !== null && a.nanCount !== null && (a.kind === 'view' || a.kind === 'pass@k')) {
    const total = a.count + a.nanCount;
    const title = `measured ${a.count} · unmeasured ${a.nanCount} of ${total}`;
    cov = coverageEls([a.count, 0, 0], total, title, `${format.int(a.count)}/${format.int(total)}`);
  } else cov = dash();
  return h('tr', { 'data-name': a.name }, [
    h('td', null, name),
    h('td', null, h('span', { class: `kind ${a.kind === 'pass@k' ? 'pass' : a.kind}`, text: kindLabel(a) })),
    h('td', {
      class: 'num mean',
      text: format.stat(mean),
      title:
        mean === null && a.kind === 'output'
          ? 'No finite numeric values: booleans and labels are never averaged (they still feed views and pass@k)'
          : null,
    }),
    h('td', { class: 'num' }, ci),
    cell('num', format.int(a.count)),
    cell('num', format.int(a.nanCount)),
    h('td', { style: { whiteSpace: 'nowrap' } }, cov),
    cell('num', format.stat(a.min)),
    cell('num', format.stat(a.max)),
    cell('num', format.stat(a.stdDev)),
  ]);
}

/** A coverage bar of scored / missing / failed counts, then its text. */
function coverageEls(counts: number[], total: number, title: string, text: string) {
  return [covBar(counts, total, title), h('span', { class: 'covtext', text })];
}

// ---------------------------------------------------------------- plots

export function renderPlots(root) {
  const withCoverage = D.outputs.filter((o) => o.coverage);
  const openTask = (t) => go(`#/task/${enc(D.tasks.id[t])}`);
  const card = (o, i) => {
    const plots = [
      o.histogram && plotBox('Distribution of values', histogramChart(o.histogram)),
      !o.histogram && o.valueCounts && plotBox('Values', valueCountsChart(o.valueCounts)),
      o.taskMeans.task.length > 0 && plotBox('Per-task mean', stripChart(o, D.tasks.id, openTask)),
      o.passAtK.length > 0 && plotBox('pass@k (macro over tasks)', passAtKChart(o.passAtK)),
    ].filter(Boolean);
    const c = o.coverage;
    const coverage = c && `scored ${format.int(c.scored)} / ${format.int(c.total)}`;
    return h('div', { class: 'plot-card', id: `plot-${i}`, 'data-key': o.key }, [
      h('h3', null, [
        h('span', { class: 'name', text: o.key }),
        h('span', { class: 'kind', text: o.kind }),
        c && h('span', { class: 'covtext', text: coverage }),
      ]),
      plots.length ? h('div', { class: 'plot-row' }, plots) : muted('No values to plot.'),
    ]);
  };
  appendKids(root, [
    h('h2', { text: 'Coverage' }),
    h(
      'div',
      { class: 'panel' },
      withCoverage.length ? coverageChart(D.outputs) : muted('No coverage in the summary.'),
    ),
    h('h2', { text: 'Outputs' }),
    D.outputs.length ? D.outputs.map(card) : muted('No metric outputs.'),
  ]);
}

export function plotBox(caption, svg) {
  return h('div', { class: 'plot' }, [h('div', { class: 'cap', text: caption }), svg]);
}

// ---------------------------------------------------------------- task explorer

export function renderTasks(root) {
  const search = h('input', { type: 'search', id: 'task-search', placeholder: 'Search task or trial id…' });
  search.value = S.q;
  const select = (props, value, pairs) => {
    const el = h(
      'select',
      props,
      pairs.map(([v, text]) => h('option', { value: v, text })),
    );
    el.value = value;
    return el;
  };
  const outputPairs = D.outputs.map((o) => [o.key, o.key]);
  const metric = select({ id: 'task-metric', title: 'Metric output' }, S.metric, [
    ['', 'Any metric'],
    ...outputPairs,
  ]);
  const status = select({ id: 'task-status', title: 'Status' }, S.status, STATUS_OPTIONS);
  const countEl = h('span', { class: 'count', id: 'task-count' });
  const exportBtn = h('button', {
    id: 'export-selection',
    text: 'Export selection (JSON)',
    onclick: exportSelection,
  });
  let timer = 0;
  const changed = (delay) => {
    Object.assign(S, { q: search.value, metric: metric.value, status: status.value });
    clearTimeout(timer);
    timer = setTimeout(() => {
      replaceHash();
      refreshTaskList();
    }, delay);
  };
  search.addEventListener('input', () => changed(X.nTrials > 20000 ? 180 : 60));
  metric.addEventListener('change', () => changed(0));
  status.addEventListener('change', () => changed(0));
  const grow = h('span', { class: 'grow' });
  root.appendChild(h('div', { class: 'toolbar' }, [search, metric, status, grow, countEl, exportBtn]));

  const list = virtualTable(
    [
      ['task', 'Task', false],
      ['n', 'Trials', true],
      ['failed', 'Failed', true],
      ['errors', 'Errors', true],
      ['mean', 'Mean', true],
    ],
    'minmax(0, 1fr) 58px 58px 58px 92px',
    (key) => {
      Object.assign(S, S.sort === key ? { dir: -S.dir } : { sort: key, dir: key === 'task' ? 1 : -1 });
      refreshTaskList();
    },
  );
  list.el.id = 'task-list';
  const detail = h('div', { class: 'detail', id: 'detail' });
  root.appendChild(h('div', { class: 'split' }, [list.el, detail]));
  X.ui = { list: list, detail: detail, countEl: countEl };
  refreshTaskList();
}

export function refreshTaskList() {
  const ui = X.ui;
  if (!ui) return;
  const o = meanOutput();
  const rows = computeTaskList(o);
  X.taskList = rows;
  let trials = 0;
  for (const r of rows) trials += r.n;
  const plural = (n, word) => `${format.int(n)} ${word}${n === 1 ? '' : 's'}`;
  ui.countEl.textContent = `${plural(rows.length, 'task')} · ${plural(trials, 'trial')}`;
  ui.list.setHeader(
    { mean: o >= 0 ? D.outputs[o].output : 'Mean' },
    S.sort,
    S.dir,
    o >= 0 ? `Mean of ${D.outputs[o].key} over the listed trials` : '',
  );
  ui.list.set(rows, (r) => {
    const id = D.tasks.id[r.t];
    const onclick = () => go(`#/task/${enc(id)}${hashQuery()}`);
    return h('div', { class: `row${id === S.task ? ' sel' : ''}`, 'data-task': id, onclick }, [
      h('span', { class: 'name', title: id, text: id }),
      h('span', { class: 'r', text: format.int(r.n) }),
      h('span', { class: `r${r.failed ? '' : ' faint'}`, text: format.int(r.failed) }),
      h('span', { class: `r${r.errors ? '' : ' faint'}`, text: format.int(r.errors) }),
      h('span', { class: 'r', text: format.stat(r.mean) }),
    ]);
  });
  renderDetail();
}

/** The output whose per-task mean the list shows: the chosen metric, else the first score-like output. */
export function meanOutput() {
  if (S.metric && X.outIndex.has(S.metric)) return X.outIndex.get(S.metric);
  let best = -1,
    bestRank = -1;
  D.outputs.forEach(function (o, i) {
    if (!o.taskMeans.task.length) return;
    const rank =
      (o.scoreLike ? 2e12 : 0) +
      (o.kind === 'continuous' ? 1e12 : 0) +
      (o.coverage ? o.coverage.scored : o.taskMeans.task.length);
    if (rank > bestRank) {
      best = i;
      bestRank = rank;
    }
  });
  return best;
}

export function computeTaskList(o) {
  const match = matcher();
  const active = filtersActive();
  const vals = o >= 0 ? D.values[o] : null;
  const status = D.trials.status,
    error = D.trials.error;
  const rows: any[] = [];
  for (let t = 0; t < X.nTasks; t++) {
    let n = 0,
      failed = 0,
      errors = 0,
      sum = 0,
      cnt = 0;
    for (const row of taskRows(t)) {
      if (!match(row)) continue;
      n++;
      if (status[row] === 'f') failed++;
      if (error[row] >= 0) errors++;
      const x = vals ? meanPart(vals[row]) : null;
      if (x !== null) {
        sum += x;
        cnt++;
      }
    }
    if (active && n === 0) continue;
    rows.push({ t: t, n: n, failed: failed, errors: errors, mean: cnt ? sum / cnt : null });
  }
  if (S.sort) {
    const key = S.sort,
      dir = S.dir,
      ids = D.tasks.id;
    const keyOf = (r) => (key === 'task' ? ids[r.t] : r[key]);
    rows.sort((a, b) => compareKeys(keyOf(a), keyOf(b), dir) || a.t - b.t);
  }
  return rows;
}

/** The trial rows of task t, in run order. */
function taskRows(t): Int32Array {
  return X.taskRows.subarray(X.taskStart[t], X.taskStart[t + 1]);
}

/** Compares two sort keys in `dir` order (1 or -1), null and undefined last in either order. */
function compareKeys(a, b, dir) {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  return (a < b ? -1 : a > b ? 1 : 0) * dir;
}

/** A value's part in a mean: numbers as they are, booleans as 0/1, anything else left out. */
function meanPart(v): number | null {
  return typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : null;
}

/** Is output o applicable to trial row r (a score of its metric type, and declared by the task)? */
export function applicable(o, row) {
  if (D.scoreStatus[X.outType[o]][row] === '-') return false;
  const d = D.tasks.decl[D.trials.task[row]];
  return d < 0 || X.declSets[d].has(o);
}

const NOT_APPLICABLE = 0,
  SCORED = 1,
  MISSING = 2,
  FAILED = 3;

/** The state of output o on trial row r: not applicable, scored, missing or failed. */
function outState(o, row) {
  if (!applicable(o, row)) return NOT_APPLICABLE;
  if (D.scoreStatus[X.outType[o]][row] === 'f') return FAILED;
  return D.values[o][row] === null ? MISSING : SCORED;
}

/** The trial status a status filter asks for. */
const TRIAL_STATUS = new Map([
  ['completed', 'c'],
  ['partial', 'p'],
  ['failed', 'f'],
]);

/** The output state a status filter asks for. */
const WANTED_STATE: Record<string, number> = { 'score-failed': FAILED, missing: MISSING, scored: SCORED };

export function matcher() {
  const q = S.q.trim().toLowerCase();
  const o = S.metric && X.outIndex.has(S.metric) ? X.outIndex.get(S.metric) : -1;
  const st = S.status;
  const status = D.trials.status,
    error = D.trials.error;
  if (q) ensureLowerIds();
  const outCount = D.outputs.length;
  const anyState = function (row, want) {
    for (let oi = 0; oi < outCount; oi++) if (outState(oi, row) === want) return true;
    return false;
  };
  return function (row) {
    if (q && X.lowerTask[D.trials.task[row]].indexOf(q) < 0 && X.lowerTrial[row].indexOf(q) < 0) return false;
    if (o >= 0 && !applicable(o, row)) return false;
    if (TRIAL_STATUS.has(st)) return status[row] === TRIAL_STATUS.get(st);
    if (st === 'error') return error[row] >= 0;
    const want = WANTED_STATE[st];
    if (want === undefined) return true;
    return o >= 0 ? outState(o, row) === want : anyState(row, want);
  };
}

/** Whether a search, metric or status filter is set. */
function filtersActive() {
  return !!(S.q.trim() || S.metric || S.status);
}

export function ensureLowerIds() {
  if (X.lowerTask) return;
  X.lowerTask = D.tasks.id.map((x) => x.toLowerCase());
  X.lowerTrial = D.trials.id.map((x) => x.toLowerCase());
}

export function exportSelection() {
  const match = matcher();
  const tasks: any[] = [];
  let trialCount = 0;
  for (let t = 0; t < X.nTasks; t++) {
    const trials: any[] = [];
    for (const row of taskRows(t)) {
      if (match(row)) trials.push(trialSummary(row));
    }
    if (trials.length || !filtersActive()) {
      tasks.push({ task_id: D.tasks.id[t], trials: trials });
      trialCount += trials.length;
    }
  }
  downloadJson(`${safeFileName(D.run.id)}-selection.json`, {
    run_id: D.run.id,
    filters: { search: S.q, metric: S.metric || null, status: S.status || null },
    task_count: tasks.length,
    trial_count: trialCount,
    tasks: tasks,
  });
}

export function trialSummary(row) {
  const scores = {},
    values = {};
  D.metricTypes.forEach((type, i) => {
    if (D.scoreStatus[i][row] !== '-') scores[type] = statusName(D.scoreStatus[i][row]);
  });
  D.outputs.forEach((o, i) => {
    if (applicable(i, row) && D.values[i][row] !== null) values[o.key] = unbox(D.values[i][row]);
  });
  const e = D.trials.error[row];
  return {
    trial_id: D.trials.id[row],
    status: statusName(D.trials.status[row]),
    error_type: e >= 0 ? D.trials.errorTypes[e] : null,
    scores: scores,
    values: values,
  };
}

// ---------------------------------------------------------------- virtual table

export function virtualTable(columns, template, onSort) {
  const ROW = 30;
  const head = h('div', { class: 'head', style: { gridTemplateColumns: template } });
  const body = h('div', { class: 'body' });
  const spacer = h('div', { style: { height: '0px' } });
  body.appendChild(spacer);
  const root = h('div', { class: 'vt' }, [head, body]);
  let items: any[] = [],
    renderRow: ((item: any) => HTMLElement) | null = null,
    pending = false;
  function drawHead(overrides, sortKey, dir, meanTitle) {
    clear(head);
    for (const [key, name, numeric] of columns) {
      const label = overrides[key] || name;
      const title = key === 'mean' && meanTitle ? meanTitle : `Sort by ${label}`;
      const arrow = sortKey === key && h('span', { class: 'arrow', text: dir > 0 ? ' ▲' : ' ▼' });
      const props = { class: numeric ? 'r' : '', 'data-sort': key, title, onclick: () => onSort(key) };
      head.appendChild(h('span', props, [label, arrow]));
    }
  }
  function draw() {
    pending = false;
    while (spacer.nextSibling) body.removeChild(spacer.nextSibling);
    if (!items.length) {
      body.appendChild(h('div', { class: 'empty', text: 'No task matches the filters.' }));
      return;
    }
    const top = body.scrollTop,
      height = body.clientHeight || 560;
    const first = Math.max(0, Math.floor(top / ROW) - 4);
    const last = Math.min(items.length, Math.ceil((top + height) / ROW) + 4);
    for (let i = first; i < last; i++) {
      const el = (renderRow as (item: any) => HTMLElement)(items[i]);
      el.style.top = `${i * ROW}px`;
      el.style.gridTemplateColumns = template;
      body.appendChild(el);
    }
  }
  body.addEventListener('scroll', () => {
    if (!pending) requestAnimationFrame(draw);
    pending = true;
  });
  drawHead({}, '', 1, '');
  return {
    el: root,
    setHeader: drawHead,
    set: function (rows, fn) {
      items = rows;
      renderRow = fn;
      spacer.style.height = `${rows.length * ROW}px`;
      body.style.height = `${Math.min(560, Math.max(rows.length, 4) * ROW + 2)}px`;
      draw();
    },
    reveal: function (index) {
      if (index < 0) return;
      const top = index * ROW,
        h2 = body.clientHeight || 560;
      if (top < body.scrollTop || top + ROW > body.scrollTop + h2) body.scrollTop = Math.max(0, top - h2 / 3);
      draw();
    },
  };
}

// ---------------------------------------------------------------- detail pane

export function renderDetail() {
  const ui = X.ui;
  if (!ui) return;
  const pane = clear(ui.detail);
  const hint = (text) => pane.appendChild(h('div', { class: 'panel hint', text }));
  const t = S.task === null ? undefined : X.taskIndex.get(S.task);
  if (t === undefined)
    return hint(S.task === null ? 'Select a task to see its trials.' : 'No task with this id in the run.');
  ui.list.reveal(X.taskList.findIndex((r) => r.t === t));
  if (!whenParsed(renderDetail)) return hint('Loading…');
  if (S.trial === null) return pane.appendChild(taskDetail(t));
  const row = findTrialRow(t, S.trial, S.occ);
  if (row < 0) return hint('No trial with this id in the task.');
  pane.appendChild(trialDetail(t, row));
}

export function findTrialRow(t, id, occ) {
  let seen = 0;
  for (const row of taskRows(t)) {
    if (D.trials.id[row] === id && ++seen === occ) return row;
  }
  return -1;
}

export function trialHash(row) {
  const t = D.trials.task[row],
    id = D.trials.id[row];
  let occ = 0;
  for (const r of taskRows(t)) {
    if (D.trials.id[r] === id) occ++;
    if (r === row) break;
  }
  return `#/task/${enc(D.tasks.id[t])}/trial/${enc(id)}${occ > 1 ? '/' + occ : ''}${hashQuery()}`;
}

export function taskOutputs(t) {
  const rows = taskRows(t);
  return D.outputs.map((_, o) => o).filter((o) => rows.some((row) => applicable(o, row)));
}

export function outputCell(o, row) {
  const state = outState(o, row);
  if (state === NOT_APPLICABLE) return h('span', { class: 'faint', text: 'n/a' });
  if (state === FAILED) return badge('f', 'failed');
  if (state === MISSING) return badge('p', 'missing');
  return valueEl(D.values[o][row]);
}

export function taskDetail(t) {
  const spec = taskSpec(t);
  const id = D.tasks.id[t];
  const active = filtersActive();
  const all = Array.from(taskRows(t));
  const rows = !active || S.allTrials ? all : all.filter(matcher());
  const outs = taskOutputs(t);
  const shown = outs.slice(0, 6);
  const limit = S.trialLimit;
  const heads = ['Trial', 'Status', 'Error', X.anyDiagnostics && 'Diagnostics'].filter(Boolean);
  const trialHead = h('tr', null, [
    heads.map((text) => h('th', { text })),
    shown.map((o) => h('th', { text: D.outputs[o].output, title: D.outputs[o].key })),
  ]);
  const count =
    active && !S.allTrials ? `matching the filters (${rows.length} of ${all.length})` : `(${all.length})`;
  const metricItem = (m) => {
    const outputs = m[1].map((o) => `${o[0]} (${o[1]}${o[2] ? '' : ', optional'})`);
    return h('li', null, [h('span', { class: 'name', text: m[0] }), ': ', outputs.join(', ')]);
  };
  const viewItem = (v) =>
    h('li', null, [h('span', { class: 'name', text: v[0] }), ` = ${v[1]}(${v[2].join(', ')})`]);
  return h('div', { class: 'panel', id: 'task-detail' }, [
    crumbs(id),
    titleRow(h('h2', { text: id }), 'Export task (JSON)', `${safeFileName(id)}-task.json`, () => ({
      run_id: D.run.id,
      task_id: id,
      spec: unbox(spec),
      trials: rows.map(trialSummary),
    })),
    spec.intent && h('p', { class: 'intent', text: spec.intent }),
    outs.length > 0 && [
      h('h3', { text: 'Outputs on this task' }),
      grid(
        { class: 'grid' },
        ['Output', ['Mean', 'num'], ['Values', 'num'], 'Coverage'],
        outs.map((o) => taskOutputRow(o, all)),
      ),
    ],
    h('h3', { text: `Trials ${count}` }),
    active &&
      moreButton(S.allTrials ? 'Only trials matching the filters' : 'Show all trials of the task', () => {
        S.allTrials = !S.allTrials;
      }),
    h('table', { class: 'grid', id: 'trial-table' }, [
      h('thead', null, trialHead),
      h(
        'tbody',
        null,
        rows.slice(0, limit).map((row) => trialRow(row, shown)),
      ),
    ]),
    rows.length > limit &&
      moreButton(`Show ${Math.min(500, rows.length - limit)} more`, () => {
        S.trialLimit += 500;
      }),
    spec.metrics && [h('h3', { text: 'Declared metrics' }), h('ul', null, spec.metrics.map(metricItem))],
    spec.views && [h('h3', { text: 'Views' }), h('ul', null, spec.views.map(viewItem))],
    spec.inputs !== undefined && jsonDetails('Inputs', spec.inputs),
    spec.reference !== undefined && jsonDetails('Reference', spec.reference),
    spec.metadata !== undefined && jsonDetails('Task metadata', spec.metadata),
  ]);
}

/** Output o over a task's trial rows: its mean, how many values, and its coverage. */
function taskOutputRow(o, rows) {
  let sum = 0,
    n = 0;
  const counts = [0, 0, 0]; // scored, missing, failed
  for (const row of rows) {
    const state = outState(o, row);
    if (state === NOT_APPLICABLE) continue;
    counts[state === SCORED ? 0 : state === MISSING ? 1 : 2]++;
    const x = state === SCORED ? meanPart(D.values[o][row]) : null;
    if (x !== null) {
      sum += x;
      n++;
    }
  }
  const [scored, missing, failed] = counts;
  const total = scored + missing + failed;
  const title = `scored ${scored} · missing ${missing} · failed ${failed}`;
  return h('tr', null, [
    cell('name', D.outputs[o].key),
    cell('num', format.stat(n ? sum / n : null)),
    cell('num', format.int(n)),
    h('td', { style: { whiteSpace: 'nowrap' } }, coverageEls(counts, total, title, `${scored}/${total}`)),
  ]);
}

/** A row of the task's trial table: id, status, error, diagnostics and the `shown` outputs. */
function trialRow(row, shown) {
  const e = D.trials.error[row];
  return h('tr', { class: 'clickable', 'data-trial': D.trials.id[row], onclick: () => go(trialHash(row)) }, [
    h('td', null, h('a', { class: 'name', href: trialHash(row), text: D.trials.id[row] })),
    h('td', null, badge(D.trials.status[row])),
    h('td', null, e >= 0 ? h('span', { class: 'badge e', text: D.trials.errorTypes[e] }) : dash()),
    X.anyDiagnostics && h('td', { class: 'diag-cell' }, diagnosticCell(row)),
    shown.map((o) => h('td', null, outputCell(o, row))),
  ]);
}

/** The path from the task list to a detail: a link to the tasks, then `parts`, `›` between. */
function crumbs(...parts) {
  const path = [h('a', { href: `#/tasks${hashQuery()}`, text: 'Tasks' }), ...parts];
  return h(
    'div',
    { class: 'crumbs' },
    path.flatMap((p, i) => (i === 0 ? [p] : [' › ', p])),
  );
}

/** A detail's title with an export button that downloads `data()` as `fileName`. */
function titleRow(title: HTMLElement, label: string, fileName: string, data: () => unknown) {
  const style = { display: 'flex', gap: '10px', alignItems: 'baseline', justifyContent: 'space-between' };
  const button = h('button', { text: label, onclick: () => downloadJson(fileName, data()) });
  return h('div', { style }, [title, button]);
}

/** A button under the trial table that changes the view state, then redraws the detail. */
function moreButton(label: string, change: () => void) {
  const onclick = () => {
    change();
    renderDetail();
  };
  return h('div', { class: 'more' }, h('button', { text: label, onclick }));
}

/** The trial table's diagnostics cell: how many, then the kind and place of the first two. */
export function diagnosticCell(row) {
  const i = D.trials.diag[row];
  if (i < 0) return dash();
  return [
    h('span', { class: 'badge w', text: String(D.trials.diagnosticCount[i]) }),
    ' ',
    h('span', { class: 'muted', text: D.trials.diagnosticText[i] }),
  ];
}

/** The trial's input diagnostics: listed from its detail, else the table's text of them. */
export function diagnosticsEl(d, row) {
  const i = D.trials.diag[row];
  if (i < 0) return null;
  const item = (g) =>
    h('li', { class: 'idiag' }, [
      h('span', { class: 'sev', text: g[0] }),
      h('span', { class: 'name', text: g[1] }),
      ': ' + g[2],
    ]);
  const items = d.diagnostics
    ? d.diagnostics.map(item)
    : [h('li', { class: 'diag', text: D.trials.diagnosticText[i] })];
  if (d.diagnosticsLeftOut)
    items.push(h('li', { class: 'muted', text: '+' + d.diagnosticsLeftOut + ' more' }));
  return h('div', { id: 'trial-diagnostics' }, [
    h('h3', { text: 'Input diagnostics (' + D.trials.diagnosticCount[i] + ')' }),
    h('ul', null, items),
  ]);
}

/** A score of the trial detail; a number stands for the first score of that metric type, rebuilt from the columns. */
export function scoreOf(entry, row) {
  if (typeof entry !== 'number') return entry;
  const outputs: unknown[] = [];
  D.outputs.forEach((o, i) => {
    if (X.outType[i] === entry && D.values[i][row] !== null) outputs.push([o.output, D.values[i][row]]);
  });
  return { type: D.metricTypes[entry], status: statusName(D.scoreStatus[entry][row]), outputs };
}

/** A trial without an embedded detail: its scores from the columns, and where to get the rest. */
export function columnsOnlyDetail(row) {
  const scores = D.metricTypes.map((_, i) => i).filter((i) => D.scoreStatus[i][row] !== '-');
  const d: Record<string, unknown> = { scores, notEmbedded: true };
  const e = D.trials.error[row];
  if (e >= 0) d.error = { type: D.trials.errorTypes[e], message: null, traceback: null, occurredAt: null };
  return d;
}

export function trialDetail(t, row) {
  const raw = trialDetailData(row) || columnsOnlyDetail(row);
  const d = Object.assign({}, raw, {
    scores: raw.scores.map((e) => scoreOf(e, row)),
  });
  const id = D.trials.id[row];
  const taskLink = h('a', { href: `#/task/${enc(D.tasks.id[t])}${hashQuery()}`, text: D.tasks.id[t] });
  const title = h('h2', null, [`${id} `, badge(D.trials.status[row])]);
  const kids: Kids[] = [
    crumbs(taskLink, id),
    titleRow(title, 'Export trial (JSON)', `${safeFileName(id)}-trial.json`, () => ({
      run_id: D.run.id,
      task_id: D.tasks.id[t],
      trial_id: id,
      status: statusName(D.trials.status[row]),
      detail: unbox(d),
    })),
    d.error ? errorEl(d.error) : null,
    diagnosticsEl(d, row),
    h('h3', { text: 'Metric scores' }),
    d.scores.length ? d.scores.map(scoreEl) : muted('No scores for this trial.'),
  ];
  const box = h('div', { class: 'panel', id: 'trial-detail' }, kids);
  if (d.notEmbedded) {
    // only the table's columns are in the report: say so instead of showing empty sections
    const note = 'This trial’s output, trajectory and metadata are not embedded in this report.';
    box.appendChild(h('div', { class: 'notes', id: 'not-embedded' }, [h('div', { text: note }), keptEls()]));
    return box;
  }
  if (d.measurements) {
    const kv = D.measurementKeys.map((k, i) => [
      h('dt', { text: k }),
      h('dd', { text: d.measurements[i] === null ? '—' : format.num(d.measurements[i]) }),
    ]);
    appendKids(box, [h('h3', { text: 'Measurements' }), h('dl', { class: 'kv' }, kv)]);
  }
  const output = d.output;
  appendKids(box, [
    h('h3', { text: 'Final output' }),
    !output
      ? muted('No output.')
      : [
          output.text === undefined
            ? muted('No output text.')
            : h('pre', { class: 'output-text', text: output.text }),
          output.response !== undefined && jsonDetails('Response', output.response),
          output.metadata !== undefined && jsonDetails('Output metadata', output.metadata),
        ],
    h('h3', { text: 'Trajectory' }),
    d.trajectory ? trajectoryEl(d.trajectory) : muted(d.trajectoryNote || 'No trajectory embedded.'),
    d.evidence && details(`Evidence (${d.evidence.length})`, evidenceGrid(d.evidence)),
    d.metadata !== undefined && jsonDetails('Trial metadata', d.metadata),
  ]);
  return box;
}

/** A trial's error: its type and time, message and traceback. */
function errorEl(error) {
  return h('div', { class: 'error-box' }, [
    h('div', null, [
      h('span', { class: 't', text: error.type }),
      error.occurredAt ? h('span', { class: 'muted', text: ` · ${error.occurredAt}` }) : null,
    ]),
    error.message ? h('div', { text: error.message }) : null,
    error.traceback ? details('Traceback', pre(error.traceback)) : null,
  ]);
}

/** One metric score of a trial: type, status, output values, diagnostics and metadata. */
function scoreEl(sc) {
  const outRows = sc.outputs.map((o) => h('tr', null, [cell('name', o[0]), h('td', null, valueEl(o[1]))]));
  return h('div', { class: 'section score' }, [
    h('div', null, [h('span', { class: 'name', text: sc.type }), ' ', badge(sc.status.charAt(0), sc.status)]),
    outRows.length ? grid({ class: 'grid outputs' }, ['Output', 'Value'], outRows) : muted('No outputs.'),
    (sc.diagnostics || []).map((g) =>
      h('div', { class: 'diag' }, [
        h('span', { class: `sev ${g.severity}`, text: g.severity }),
        g.message,
        g.source ? h('span', { class: 'muted', text: ` (${g.source})` }) : null,
        g.details ? jsonDetails('Details', g.details) : null,
      ]),
    ),
    sc.metadata ? jsonDetails('Score metadata', sc.metadata) : null,
  ]);
}

/** The evidence descriptors of a trial: name, kind, format, ref. */
function evidenceGrid(evidence) {
  const row = (e) =>
    h('tr', null, [
      cell('name', e[0]),
      cell(null, e[1]),
      cell(null, e[2] || '—'),
      cell('name', e[3] || '(inline)'),
    ]);
  return grid({ class: 'grid' }, ['Name', 'Kind', 'Format', 'Ref'], evidence.map(row));
}

export function trajectoryEl(tr) {
  let calls = tr.calls.length;
  for (const st of tr.steps) calls += st.calls.length;
  const summary = [
    'Steps and tool calls ',
    h('span', {
      class: 'muted',
      text: `· ${tr.format}${tr.steps.length ? ' · ' + tr.steps.length + ' steps' : ''} · ${calls} tool calls${tr.agent ? ' · ' + tr.agent : ''}`,
    }),
  ];
  const known = (v) => (v === null ? '?' : v);
  const step = (st) => {
    const tok = st.tokens ? ` · tokens ${known(st.tokens[0])} in / ${known(st.tokens[1])} out` : '';
    return h('div', { class: `step ${st.source}` }, [
      h('div', {
        class: 'sh',
        text: `Step ${known(st.id)} · ${st.source}${st.model ? ' · ' + st.model : ''}${tok}`,
      }),
      st.message ? pre(st.message) : null,
      st.reasoning ? details('Reasoning', pre(st.reasoning)) : null,
      st.calls.map(toolCallEl),
      st.observations.map((ob) => details('Observation', pre(ob))),
    ]);
  };
  const body = [tr.note && muted(tr.note), tr.steps.map(step), tr.calls.map(toolCallEl)];
  return h('details', { class: 'trajectory' }, [
    h('summary', null, summary),
    h('div', { class: 'in' }, body),
  ]);
}

export function toolCallEl(c) {
  return h('details', { class: `call${c.isError ? ' err' : ''}` }, [
    h('summary', null, [
      'Tool call ',
      h('span', { class: 'name', text: c.name }),
      c.isError ? ' (error)' : '',
      c.id ? h('span', { class: 'muted', text: ` · ${c.id}` }) : null,
    ]),
    h('div', { class: 'in' }, [
      h('div', { class: 'cap muted', text: 'Arguments' }),
      pre(pretty(c.arguments)),
      h('div', { class: 'cap muted', text: 'Result' }),
      c.result === null ? muted('No result recorded.') : pre(pretty(c.result)),
    ]),
  ]);
}
