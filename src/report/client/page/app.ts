import type { ReportData } from '../../report-data.js';
import { format } from '../format.js';
import { clear, dec, enc, h } from './dom.js';
import { renderDetail, renderHeader, renderPlots, renderSummary, renderTasks } from './views.js';

/** The embedded data plus the per-row columns `derive` expands. */
export type PageData = ReportData & {
  trials: ReportData['trials'] & { task: Int32Array; error: Int32Array; diag: Int32Array };
};

/**
 * Report page, part 4 of 4: reads the embedded JSON, derives indexes, routes on the URL hash
 * (`#/summary`, `#/plots[/<output>]`, `#/tasks`, `#/task/<id>[/trial/<id>[/<n>]]`, filters as
 * `?q=&m=&s=`) and renders. Marks `<html data-ready="1">` when the first view is on screen.
 *
 * @example
 * import { h } from './dom.js';
 */
export const T0 = performance.now();
export let D: PageData = null as unknown as PageData;
/** Indexes derived from the data once (`derive`), and the page's elements. */
export const X: Record<string, any> = {};
/** The view a hash without parts opens. */
const HOME = { view: 'summary', task: null, trial: null, occ: 1, output: null };
export const S = {
  ...HOME,
  q: '',
  metric: '',
  status: '',
  sort: '',
  dir: 1,
  aggQ: '',
  aggKind: '',
  aggSort: '',
  aggDir: 1,
  allTrials: false,
  trialLimit: 200,
};

export function readJson(id) {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : null;
}

export function derive() {
  const nTrials = D.trials.id.length,
    nTasks = D.tasks.id.length;
  // Expand the run-length task column and the sparse error list into per-row arrays.
  const taskCol = new Int32Array(nTrials);
  for (let i = 0, row = 0; i < D.trials.taskRuns.length; i += 2) {
    taskCol.fill(D.trials.taskRuns[i], row, row + D.trials.taskRuns[i + 1]);
    row += D.trials.taskRuns[i + 1];
  }
  D.trials.task = taskCol;
  const errorCol = new Int32Array(nTrials).fill(-1);
  D.trials.errorRows.forEach((row, i) => (errorCol[row] = D.trials.errorOfRow[i]));
  D.trials.error = errorCol;
  // index into the sparse diagnostic columns, -1 for a row without input diagnostics
  const diagCol = new Int32Array(nTrials).fill(-1);
  D.trials.diagnosticRows.forEach((row, i) => (diagCol[row] = i));
  D.trials.diag = diagCol;
  X.anyDiagnostics = D.trials.diagnosticRows.length > 0;
  X.nTrials = nTrials;
  X.nTasks = nTasks;
  const start = new Int32Array(nTasks + 1);
  const task = D.trials.task;
  for (let i = 0; i < nTrials; i++) start[task[i] + 1]++;
  for (let t = 0; t < nTasks; t++) start[t + 1] += start[t];
  const fill = start.slice(0, nTasks);
  const rows = new Int32Array(nTrials);
  for (let i = 0; i < nTrials; i++) rows[fill[task[i]]++] = i;
  X.taskStart = start;
  X.taskRows = rows;
  X.taskIndex = new Map(D.tasks.id.map((id, i) => [id, i]));
  const typeIndex = new Map(D.metricTypes.map((t, i) => [t, i]));
  X.outType = D.outputs.map((o) => typeIndex.get(o.metric));
  X.outIndex = new Map(D.outputs.map((o, i) => [o.key, i]));
  X.declSets = D.declSets.map((list) => new Set(list));
  X.chunks = new Map();
  X.taskSpecs = undefined;
  X.ui = null;
  X.taskList = [];
}

/** Runs fn now if the detail blocks (after the script) are parsed, else once they are. */
export function whenParsed(fn) {
  if (document.readyState !== 'loading') return true;
  if (!X.waiting) {
    X.waiting = true;
    document.addEventListener('DOMContentLoaded', () => {
      X.waiting = false;
      fn();
    });
  }
  return false;
}

/** The embedded detail of a trial row, or null when the row was not kept. */
export function trialDetailData(row) {
  const at = D.detail.rows.indexOf(row);
  if (at < 0) return null;
  const c = Math.floor(at / D.detail.chunkSize);
  let chunk = X.chunks.get(c);
  if (!chunk) {
    chunk = readJson(`es-d-${c}`) || [];
    X.chunks.set(c, chunk);
  }
  return chunk[at - c * D.detail.chunkSize] || null;
}

export function taskSpec(t) {
  if (X.taskSpecs === undefined) X.taskSpecs = readJson('es-tasks') || [];
  return X.taskSpecs[t] || {};
}

// ---------------------------------------------------------------- routing

export function parseHash() {
  let hash = location.hash.replace(/^#/, '');
  let query = '';
  const qi = hash.indexOf('?');
  if (qi >= 0) {
    query = hash.slice(qi + 1);
    hash = hash.slice(0, qi);
  }
  const parts = hash
    .split('/')
    .filter((p) => p !== '')
    .map(dec);
  const params = new URLSearchParams(query);
  const r = {
    ...HOME,
    q: params.get('q') || '',
    metric: params.get('m') || '',
    status: params.get('s') || '',
  };
  if (parts[0] === 'plots') {
    r.view = 'plots';
    r.output = parts[1] === undefined ? null : parts[1];
  } else if (parts[0] === 'tasks') r.view = 'tasks';
  else if (parts[0] === 'task' && parts[1] !== undefined) {
    r.view = 'tasks';
    r.task = parts[1];
    if (parts[2] === 'trial' && parts[3] !== undefined) {
      r.trial = parts[3];
      r.occ = Math.max(1, parseInt(parts[4] || '1', 10) || 1);
    }
  }
  return r;
}

export function hashQuery() {
  const p = new URLSearchParams();
  if (S.q) p.set('q', S.q);
  if (S.metric) p.set('m', S.metric);
  if (S.status) p.set('s', S.status);
  const q = p.toString();
  return q ? `?${q}` : '';
}

export function currentHash() {
  if (S.view === 'plots') return `#/plots${S.output === null ? '' : '/' + enc(S.output)}`;
  if (S.view !== 'tasks') return '#/summary';
  if (S.task === null) return `#/tasks${hashQuery()}`;
  let hsh = `#/task/${enc(S.task)}`;
  if (S.trial !== null) hsh += `/trial/${enc(S.trial)}${S.occ > 1 ? '/' + S.occ : ''}`;
  return hsh + hashQuery();
}

export function replaceHash() {
  history.replaceState(null, '', currentHash());
}

export function go(hash) {
  if (location.hash === hash) onRoute();
  else location.hash = hash;
}

export function onRoute() {
  const r = parseHash();
  const prevView = S.view,
    prevTask = S.task;
  const filtersChanged = r.q !== S.q || r.metric !== S.metric || r.status !== S.status;
  Object.assign(S, r);
  if (S.task !== prevTask) {
    S.allTrials = false;
    S.trialLimit = 200;
  }
  for (const a of X.tabs) a.classList.toggle('on', a.getAttribute('data-view') === S.view);
  if (S.view === 'tasks' && prevView === 'tasks' && X.ui && !filtersChanged) {
    for (const el of X.ui.list.el.querySelectorAll('.row'))
      el.classList.toggle('sel', el.getAttribute('data-task') === S.task);
    renderDetail();
    return;
  }
  renderMain();
  if (S.view === 'plots' && S.output !== null) {
    const card = X.main.querySelector(`[data-key="${CSS.escape(S.output)}"]`);
    if (card) card.scrollIntoView({ block: 'start' });
  } else if (prevView !== S.view) window.scrollTo(0, 0);
}

export function renderMain() {
  const main = clear(X.main);
  X.ui = null;
  const wrap = h('div', { class: 'wrap' });
  main.appendChild(wrap);
  if (S.view === 'plots') renderPlots(wrap);
  else if (S.view === 'tasks') renderTasks(wrap);
  else renderSummary(wrap);
}

export function init() {
  D = readJson('es-data');
  derive();
  document.title = `evalstream · ${D.run.id}`;
  const app = clear(document.getElementById('app') as HTMLElement);
  app.appendChild(renderHeader());
  const tabs = [
    ['summary', 'Summary', '#/summary'],
    ['plots', 'Plots', '#/plots'],
    ['tasks', `Tasks (${format.int(X.nTasks)})`, '#/tasks'],
  ];
  // the tasks tab keeps the filters
  const onTasks = (ev) => {
    ev.preventDefault();
    go(`#/tasks${hashQuery()}`);
  };
  X.tabs = tabs.map(([view, text, href]) =>
    h('a', { href, 'data-view': view, id: `tab-${view}`, text, onclick: view === 'tasks' && onTasks }),
  );
  app.appendChild(h('nav', { class: 'tabs' }, h('div', { class: 'wrap' }, X.tabs)));
  X.main = h('main', { id: 'view' });
  app.appendChild(X.main);
  window.addEventListener('hashchange', onRoute);
  onRoute();
  document.documentElement.setAttribute('data-ready', '1');
  (window as unknown as { __esReady: unknown }).__esReady = { scriptStart: T0, ready: performance.now() };
}

/** Shows the report: the first view now, details as they are opened. */
export function start() {
  try {
    init();
  } catch (err) {
    const app = document.getElementById('app');
    if (app)
      app.appendChild(
        h('div', {
          class: 'error-box',
          text: `The report could not be displayed: ${err instanceof Error ? err.message : String(err)}`,
        }),
      );
    throw err;
  }
}
