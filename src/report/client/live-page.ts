import { format } from './format.js';
import { appendKids, clear, h } from './page/dom.js';

/** The parts of `/v1/summary` the live page shows. */
interface LiveSummary {
  task_count: number;
  trial_count: number;
  score_count: number;
  error_count: number;
  scores?: {
    scores?: { name: string; mean: number | null; count: number | null; nan_count: number | null }[];
  };
}

const token = new URLSearchParams(location.search).get('token');
const query = token ? `?token=${encodeURIComponent(token)}` : '';

function byId(id: string): HTMLElement {
  return document.getElementById(id) as HTMLElement;
}

function render(s: LiveSummary): void {
  byId('counts').textContent =
    `tasks ${format.int(s.task_count)} · trials ${format.int(s.trial_count)} · scores ${format.int(s.score_count)} · errors ${format.int(s.error_count)}`;
  const rows = (s.scores?.scores ?? []).map((a) => {
    const cells = [a.name, format.stat(a.mean), format.int(a.count), format.int(a.nan_count)];
    return h(
      'tr',
      null,
      cells.map((text) => h('td', { text })),
    );
  });
  appendKids(clear(byId('rows')), rows);
}

/**
 * The wait between two summary reads: at least a second, and 20 times the server's build time, so an
 * open page costs the server at most ~5 % of its time however large the run grows.
 */
function summaryDelayMs(costMs: number): number {
  return Math.max(1000, 20 * (costMs > 0 ? costMs : 0));
}
(window as unknown as { summaryDelayMs: typeof summaryDelayMs }).summaryDelayMs = summaryDelayMs;

function buildMs(r: Response): number {
  const m = /(?:^|,)\s*summary;dur=([0-9.]+)/.exec(r.headers.get('server-timing') || '');
  return m ? Number(m[1]) : 0;
}

// at most one summary request in flight: score events come by thousands under load
let pending = false;
let again = false;
let last = 0;
let cost = 0;
function refresh(): void {
  if (pending) {
    again = true;
    return;
  }
  const wait = last + summaryDelayMs(cost) - Date.now();
  if (wait > 0) {
    pending = true;
    setTimeout(() => {
      pending = false;
      refresh();
    }, wait);
    return;
  }
  pending = true;
  again = false;
  const done = (): void => {
    pending = false;
    if (again) refresh();
  };
  const request = fetch(
    `/v1/summary?omit=task_metric_values${token ? '&token=' + encodeURIComponent(token) : ''}`,
  );
  // the wait counts from after the request started, so reads are spaced by at least the delay
  last = Date.now();
  request
    .then((r) => {
      cost = buildMs(r);
      return r.json() as Promise<LiveSummary>;
    })
    .then((s) => {
      render(s);
      done();
    }, done);
}

refresh();
const events = new EventSource(`/v1/events${query}`);
events.onopen = () => {
  byId('dot').className = 'dot on';
  byId('status').textContent = 'live';
};
events.onerror = () => {
  byId('dot').className = 'dot';
  byId('status').textContent = 'disconnected, retrying…';
};
events.addEventListener('score', refresh);
