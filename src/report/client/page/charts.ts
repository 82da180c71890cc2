import './safe-locale.js';
import uPlot from 'uplot';
import type { ReportHistogram, ReportOutput } from '../../report-data.js';
import { format } from '../format.js';
import { covBar, h } from './dom.js';

/**
 * Report page, part 2 of 4: the charts. Histograms, per-task means and pass@k curves are uPlot charts
 * (canvas, with a readout line for the point under the cursor); value counts and coverage are HTML
 * bars. Labels are text, never markup.
 *
 * @example
 * root.appendChild(histogramChart(output.histogram));
 */
const SIZE = { width: 400, height: 200 };
const ACCENT = '#2557c7';
const BAR = '#5b8ce6';
const AXIS = { stroke: '#667085', grid: { stroke: '#edf0f4', width: 1 }, ticks: { show: false } };

/** A short axis label: `1.2M`, `15k`, `1,500`, or 4 significant digits. */
function tickLabel(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${String(parseFloat((v / 1e6).toPrecision(3)))}M`;
  if (a >= 1e4) return `${String(parseFloat((v / 1e3).toPrecision(3)))}k`;
  if (a >= 1000 && Number.isInteger(v)) return format.int(v);
  return String(parseFloat(v.toPrecision(4)));
}

/** A uPlot chart in a box with a readout line that names the point under the cursor. */
function chart(
  className: string,
  options: Omit<uPlot.Options, 'width' | 'height'>,
  data: uPlot.AlignedData,
  readout: (index: number) => string,
  onPick?: (index: number) => void,
): HTMLElement {
  const line = h('div', { class: 'readout', text: ' ' });
  const box = h('div', { class: `chart ${className}` });
  const plot = new uPlot(
    {
      ...SIZE,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      ...options,
      // every chart's y axis: counts or values, short labels
      axes: [...(options.axes ?? []), { ...AXIS, values: (_u, ticks) => ticks.map(tickLabel) }],
      hooks: {
        setCursor: [
          (u) => {
            const i = u.cursor.idx;
            line.textContent = i === null || i === undefined ? ' ' : readout(i);
          },
        ],
      },
    },
    data,
    box,
  );
  if (onPick) {
    plot.over.style.cursor = 'pointer';
    plot.over.addEventListener('click', () => {
      const i = plot.cursor.idx;
      if (i !== null && i !== undefined) onPick(i);
    });
  }
  box.appendChild(line);
  return box;
}

/** Bars of a histogram (`[a, b)` bins, the last closed; discrete bins centred on integers). */
export function histogramChart(hist: ReportHistogram): HTMLElement {
  const { edges, counts } = hist;
  const centres = counts.map((_, i) => ((edges[i] as number) + (edges[i + 1] as number)) / 2);
  const label = (i: number): string =>
    hist.discrete
      ? tickLabel((edges[i] as number) + 0.5)
      : `[${tickLabel(edges[i] as number)}, ${tickLabel(edges[i + 1] as number)}${i === counts.length - 1 ? ']' : ')'}`;
  return chart(
    'histogram',
    {
      scales: {
        x: { time: false, range: [edges[0] as number, edges[edges.length - 1] as number] },
        y: { range: (_u, _lo, hi) => [0, Math.max(1, hi)] },
      },
      axes: [{ ...AXIS, label: 'value', values: (_u, ticks) => ticks.map(tickLabel) }],
      series: [
        {},
        {
          fill: BAR,
          stroke: BAR,
          paths: uPlot.paths.bars?.({ size: [0.92, Infinity], align: 0 }),
          points: { show: false },
        },
      ],
    },
    [centres, counts],
    (i) => `${label(i)}: ${format.int(counts[i])}${counts[i] === 1 ? ' value' : ' values'}`,
  );
}

/** Label and boolean values: one HTML bar per value, most frequent first. */
export function valueCountsChart(pairs: [string, number][]): HTMLElement {
  const max = Math.max(1, ...pairs.map((p) => p[1]));
  return h(
    'div',
    { class: 'hbars' },
    pairs.map((p) =>
      h('div', { class: 'hbar', title: `${p[0]}: ${format.int(p[1])}` }, [
        h('span', { class: 'l', text: p[0] }),
        h('span', { class: 'b' }, h('span', { style: { width: `${((100 * p[1]) / max).toFixed(2)}%` } })),
        h('span', { class: 'n', text: format.int(p[1]) }),
      ]),
    ),
  );
}

/** Per-task means, tasks sorted by mean; clicking opens the task under the cursor. */
export function stripChart(
  out: ReportOutput,
  taskIds: string[],
  onPick: (task: number) => void,
): HTMLElement {
  const tasks = out.taskMeans.task;
  const means = out.taskMeans.mean;
  const n = means.length;
  const unit = (means[0] as number) >= 0 && (means[n - 1] as number) <= 1;
  const dots = n <= 300;
  return chart(
    'strip',
    {
      scales: { x: { time: false, range: [0, Math.max(1, n)] }, y: unit ? { range: [0, 1] } : {} },
      axes: [
        {
          ...AXIS,
          label: format.int(n) + (n === 1 ? ' task' : ' tasks') + ', sorted by mean',
          values: (_u, ticks) => ticks.map((v) => (Number.isInteger(v) ? format.int(v) : '')),
        },
      ],
      series: [
        {},
        dots
          ? {
              stroke: BAR,
              paths: () => null,
              points: { show: true, size: n > 120 ? 5 : 7, fill: BAR, stroke: BAR },
            }
          : { stroke: ACCENT, width: 2, points: { show: false } },
      ],
    },
    [means.map((_, i) => i + 0.5), means],
    (i) => `${taskIds[tasks[i] as number]}: ${format.stat(means[i])}`,
    (i) => onPick(tasks[i] as number),
  );
}

/** The pass@k curve: the summary's macro pass@k means, k = 1…K. */
export function passAtKChart(points: ReportOutput['passAtK']): HTMLElement {
  const K = (points[points.length - 1] as ReportOutput['passAtK'][number]).k;
  return chart(
    'passk',
    {
      scales: { x: { time: false, range: K === 1 ? [0.5, 1.5] : [1, K] }, y: { range: [0, 1] } },
      axes: [
        {
          ...AXIS,
          label: 'k',
          values: (_u, ticks) => ticks.map((v) => (Number.isInteger(v) ? String(v) : '')),
        },
      ],
      series: [
        {},
        { stroke: ACCENT, width: 2, points: { show: true, size: 7, fill: ACCENT, stroke: '#fff' } },
      ],
    },
    [points.map((p) => p.k), points.map((p) => p.mean)],
    (i) => {
      const p = points[i] as ReportOutput['passAtK'][number];
      return `pass@${p.k} = ${format.stat(p.mean)} (count ${format.int(p.count)}, nan_count ${format.int(p.nanCount)})`;
    },
  );
}

/** One normalised stacked bar (scored / missing / failed) per output. */
export function coverageChart(outputs: ReportOutput[]): HTMLElement {
  return h(
    'div',
    { class: 'coverage-chart' },
    outputs
      .filter((o) => o.coverage)
      .map((o) => {
        const c = o.coverage as NonNullable<ReportOutput['coverage']>;
        const text = `scored ${format.int(c.scored)} · missing ${format.int(c.missing)} · failed ${format.int(c.failed)}`;
        return h('div', { class: 'cov-row' }, [
          h('span', { class: 'l', title: o.key, text: o.key }),
          covBar([c.scored, c.missing, c.failed], c.total, text),
          h('span', { class: 'n', text: text }),
        ]);
      }),
  );
}
