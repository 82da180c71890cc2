import { format } from '../format.js';
import { s } from './dom.js';

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/**
 * Report page, part 2 of 4: inline SVG charts (histogram, value counts, per-task strip, pass@k curve,
 * coverage stacked bars). Labels are SVG text nodes (textContent); tooltips are `<title>` text.
 *
 * @example
 * import { h } from './dom.js';
 */
export const CHART = { w: 400, h: 200, l: 46, r: 14, t: 12, b: 34 };

export function niceTicks(lo, hi, count) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10]
    .map(function (m) {
      return m * mag;
    })
    .find(function (v) {
      return v >= raw;
    }) as number;
  const ticks: any[] = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
    ticks.push(parseFloat(v.toPrecision(12)));
  return ticks;
}

export function tickLabel(v) {
  const a = Math.abs(v);
  if (a >= 1e6) return String(parseFloat((v / 1e6).toPrecision(3))) + 'M';
  if (a >= 1e4) return String(parseFloat((v / 1e3).toPrecision(3))) + 'k';
  if (a >= 1000 && Number.isInteger(v)) return NUMBER_FORMAT.format(v);
  return String(parseFloat(v.toPrecision(4)));
}

/** An SVG plot frame with gridlines and tick labels; returns scales and the svg. */
export function frame(xd, yd, opts) {
  const o = opts || {};
  const W = o.w || CHART.w,
    H = o.h || CHART.h;
  const x0 = CHART.l,
    x1 = W - CHART.r,
    y0 = H - CHART.b,
    y1 = CHART.t;
  const x = function (v) {
    return x0 + ((v - xd[0]) / (xd[1] - xd[0] || 1)) * (x1 - x0);
  };
  const y = function (v) {
    return y0 - ((v - yd[0]) / (yd[1] - yd[0] || 1)) * (y0 - y1);
  };
  const svg = s('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
  for (const v of o.yTicks || niceTicks(yd[0], yd[1], 4)) {
    svg.appendChild(s('line', { class: 'gridline', x1: x0, x2: x1, y1: y(v), y2: y(v) }));
    svg.appendChild(
      s('text', { x: x0 - 6, y: y(v) + 3.5, 'text-anchor': 'end', text: (o.yFmt || tickLabel)(v) }),
    );
  }
  for (const v of o.xTicks || niceTicks(xd[0], xd[1], 5)) {
    svg.appendChild(
      s('text', { x: x(v), y: y0 + 15, 'text-anchor': 'middle', text: (o.xFmt || tickLabel)(v) }),
    );
  }
  svg.appendChild(s('line', { class: 'axis', x1: x0, x2: x1, y1: y0, y2: y0 }));
  if (o.xLabel)
    svg.appendChild(s('text', { x: (x0 + x1) / 2, y: H - 3, 'text-anchor': 'middle', text: o.xLabel }));
  return { svg: svg, x: x, y: y, x0: x0, x1: x1, y0: y0, y1: y1 };
}

export function histogramChart(hist) {
  const edges = hist.edges,
    counts = hist.counts;
  const maxCount = Math.max.apply(null, counts.concat([1]));
  let xTicks: number[] | null = null;
  if (hist.discrete) {
    const ints: any[] = [];
    const every = Math.ceil(counts.length / 10);
    for (let i = 0; i < counts.length; i += every) ints.push(edges[i] + 0.5);
    xTicks = ints;
  }
  // extend the count axis to the tick at or above the tallest bar
  let yTicks = niceTicks(0, maxCount, 4).filter(function (v) {
    return Number.isInteger(v);
  });
  const step = yTicks.length > 1 ? yTicks[1] - yTicks[0] : 1;
  const top = Math.max(step, Math.ceil(maxCount / step) * step);
  if (yTicks[yTicks.length - 1] < top) yTicks = yTicks.concat([top]);
  const f = frame([edges[0], edges[edges.length - 1]], [0, top], {
    xTicks: xTicks,
    yTicks: yTicks,
    xLabel: 'value',
  });
  counts.forEach(function (c, i) {
    const xa = f.x(edges[i]),
      xb = f.x(edges[i + 1]);
    const label = hist.discrete
      ? tickLabel(edges[i] + 0.5)
      : '[' + tickLabel(edges[i]) + ', ' + tickLabel(edges[i + 1]) + (i === counts.length - 1 ? ']' : ')');
    f.svg.appendChild(
      s(
        'rect',
        { class: 'bar', x: xa + 0.5, width: Math.max(1, xb - xa - 1), y: f.y(c), height: f.y0 - f.y(c) },
        s('title', { text: label + ': ' + format.int(c) + (c === 1 ? ' value' : ' values') }),
      ),
    );
  });
  return f.svg;
}

export function valueCountsChart(pairs) {
  const rowH = 20,
    W = CHART.w,
    labelW = 120;
  const H = pairs.length * rowH + 8;
  const max = Math.max.apply(
    null,
    pairs
      .map(function (p) {
        return p[1];
      })
      .concat([1]),
  );
  const svg = s('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
  pairs.forEach(function (p, i) {
    const y = 4 + i * rowH;
    const label = p[0].length > 18 ? p[0].slice(0, 17) + '…' : p[0];
    const w = ((W - labelW - 60) * p[1]) / max;
    svg.appendChild(
      s('text', { x: labelW - 6, y: y + 13, 'text-anchor': 'end' }, [label, s('title', { text: p[0] })]),
    );
    svg.appendChild(
      s(
        'rect',
        { class: 'bar', x: labelW, y: y + 3, width: Math.max(1, w), height: rowH - 6 },
        s('title', { text: p[0] + ': ' + format.int(p[1]) }),
      ),
    );
    svg.appendChild(s('text', { x: labelW + w + 5, y: y + 13, text: format.int(p[1]) }));
  });
  return svg;
}

/** Per-task means, tasks sorted by mean; clicking a point (or the nearest task) opens the task. */
export function stripChart(out, taskIds, onPick) {
  const tasks = out.taskMeans.task,
    means = out.taskMeans.mean,
    n = means.length;
  let lo = means[0],
    hi = means[n - 1];
  if (lo >= 0 && hi <= 1) {
    lo = 0;
    hi = 1;
  } else if (lo === hi) {
    lo -= 0.5;
    hi += 0.5;
  } else {
    const pad = (hi - lo) * 0.06;
    lo -= pad;
    hi += pad;
  }
  const f = frame([0, n], [lo, hi], {
    xTicks:
      n > 1
        ? niceTicks(0, n, 4).filter(function (v) {
            return Number.isInteger(v) && v <= n;
          })
        : [],
    xLabel: format.int(n) + (n === 1 ? ' task' : ' tasks') + ', sorted by mean',
    xFmt: function (v) {
      return format.int(v);
    },
  });
  const readout = s('text', { x: f.x1, y: CHART.t - 1, 'text-anchor': 'end', text: '' });
  if (n <= 300) {
    const r = n > 120 ? 2.2 : 3.2;
    for (let i = 0; i < n; i++) {
      const t = tasks[i];
      f.svg.appendChild(
        s(
          'circle',
          {
            class: 'strip',
            cx: f.x(i + 0.5),
            cy: f.y(means[i]),
            r: r,
            onclick: function () {
              onPick(t);
            },
          },
          s('title', { text: taskIds[t] + ': ' + format.stat(means[i]) }),
        ),
      );
    }
  } else {
    const stride = Math.max(1, Math.floor(n / 800));
    let d = '';
    for (let i = 0; i < n; i += stride)
      d += (d ? 'L' : 'M') + f.x(i + 0.5).toFixed(1) + ' ' + f.y(means[i]).toFixed(1);
    d += 'L' + f.x(n - 0.5).toFixed(1) + ' ' + f.y(means[n - 1]).toFixed(1);
    f.svg.appendChild(s('path', { class: 'line', d: d }));
    const pick = function (ev) {
      const box = f.svg.getBoundingClientRect();
      const px = (ev.clientX - box.left) * (CHART.w / box.width);
      return Math.min(n - 1, Math.max(0, Math.floor(((px - f.x0) / (f.x1 - f.x0)) * n)));
    };
    f.svg.appendChild(
      s('rect', {
        class: 'hit',
        x: f.x0,
        y: f.y1,
        width: f.x1 - f.x0,
        height: f.y0 - f.y1,
        onmousemove: function (ev) {
          const i = pick(ev);
          readout.textContent = taskIds[tasks[i]] + ': ' + format.stat(means[i]);
        },
        onmouseleave: function () {
          readout.textContent = '';
        },
        onclick: function (ev) {
          onPick(tasks[pick(ev)]);
        },
      }),
    );
  }
  f.svg.appendChild(readout);
  return f.svg;
}

export function passAtKChart(points) {
  const K = points[points.length - 1].k;
  const xd = K === 1 ? [0.5, 1.5] : [1, K];
  const every = Math.ceil(K / 10);
  const xTicks: any[] = [];
  for (let k = 1; k <= K; k += every) xTicks.push(k);
  const f = frame(xd, [0, 1], { xTicks: xTicks, yTicks: [0, 0.25, 0.5, 0.75, 1], xLabel: 'k' });
  let d = '';
  for (const p of points)
    if (p.mean !== null) d += (d ? 'L' : 'M') + f.x(p.k).toFixed(1) + ' ' + f.y(p.mean).toFixed(1);
  if (d) f.svg.appendChild(s('path', { class: 'line', d: d }));
  for (const p of points) {
    if (p.mean === null) continue;
    f.svg.appendChild(
      s(
        'circle',
        { class: 'dot', cx: f.x(p.k), cy: f.y(p.mean), r: 3.5 },
        s('title', {
          text:
            'pass@' +
            p.k +
            ' = ' +
            format.stat(p.mean) +
            ' (count ' +
            format.int(p.count) +
            ', nan_count ' +
            format.int(p.nanCount) +
            ')',
        }),
      ),
    );
  }
  return f.svg;
}

/** One normalised stacked bar (scored / missing / failed) per output. */
export function coverageChart(outputs) {
  const rows = outputs.filter(function (o) {
    return o.coverage;
  });
  const rowH = 24,
    W = 1000,
    labelW = 300,
    barW = 460;
  const H = Math.max(1, rows.length) * rowH + 6;
  const svg = s('svg', {
    width: W,
    height: H,
    viewBox: '0 0 ' + W + ' ' + H,
    role: 'img',
    class: 'coverage-chart',
  });
  rows.forEach(function (o, i) {
    const c = o.coverage,
      y = 3 + i * rowH;
    const label = o.key.length > 44 ? o.key.slice(0, 43) + '…' : o.key;
    svg.appendChild(
      s('text', { x: labelW - 8, y: y + 15, 'text-anchor': 'end' }, [label, s('title', { text: o.key })]),
    );
    let x = labelW;
    const parts = [
      ['scored', c.scored, '#2f9e62'],
      ['missing', c.missing, '#e0a21b'],
      ['failed', c.failed, '#d2433f'],
    ];
    svg.appendChild(s('rect', { x: labelW, y: y + 5, width: barW, height: 13, rx: 3, fill: '#c9d1dc' }));
    for (const p of parts) {
      if (!p[1] || !c.total) continue;
      const w = (barW * p[1]) / c.total;
      svg.appendChild(
        s(
          'rect',
          { x: x, y: y + 5, width: w, height: 13, fill: p[2] },
          s('title', { text: p[0] + ': ' + format.int(p[1]) + ' of ' + format.int(c.total) }),
        ),
      );
      x += w;
    }
    svg.appendChild(
      s('text', {
        x: labelW + barW + 10,
        y: y + 15,
        text:
          'scored ' +
          format.int(c.scored) +
          ' · missing ' +
          format.int(c.missing) +
          ' · failed ' +
          format.int(c.failed) +
          ' / ' +
          format.int(c.total),
      }),
    );
  });
  return svg;
}
