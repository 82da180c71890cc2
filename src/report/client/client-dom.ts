/**
 * Page script, part 1 of 4: DOM builders and formatting. Every piece of data reaches the page through
 * `textContent`, `createTextNode` or `setAttribute` with an attribute name chosen by this code; nothing
 * here (or in the other parts) assigns `innerHTML`. No backticks or `${` in this source (it lives in a
 * template literal).
 *
 * @example
 * const script = CLIENT_DOM + CLIENT_CHARTS + CLIENT_VIEWS + CLIENT_APP;
 */
export const CLIENT_DOM = String.raw`
const SVGNS = 'http://www.w3.org/2000/svg';
const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

function setProps(el, props) {
  if (!props) return;
  for (const key of Object.keys(props)) {
    const v = props[key];
    if (v === null || v === undefined || v === false) continue;
    if (key === 'text') el.textContent = String(v);
    else if (key === 'class') el.setAttribute('class', v);
    else if (key === 'style') for (const sk of Object.keys(v)) el.style[sk] = v[sk];
    else if (key.slice(0, 2) === 'on') el.addEventListener(key.slice(2), v);
    else el.setAttribute(key, v === true ? '' : String(v));
  }
}

function appendKids(el, kids) {
  if (kids === null || kids === undefined || kids === false) return;
  if (!Array.isArray(kids)) kids = [kids];
  for (const kid of kids) {
    if (kid === null || kid === undefined || kid === false) continue;
    if (Array.isArray(kid)) appendKids(el, kid);
    else if (typeof kid === 'object') el.appendChild(kid);
    else el.appendChild(document.createTextNode(String(kid)));
  }
}

/** An HTML element; strings among the children become text nodes. */
function h(tag, props, kids) {
  const el = document.createElement(tag);
  setProps(el, props);
  appendKids(el, kids);
  return el;
}

/** An SVG element. */
function s(tag, attrs, kids) {
  const el = document.createElementNS(SVGNS, tag);
  setProps(el, attrs);
  appendKids(el, kids);
  return el;
}

function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

function enc(part) {
  return encodeURIComponent(part);
}

function dec(part) {
  try {
    return decodeURIComponent(part);
  } catch (e) {
    return part;
  }
}

function fmtInt(n) {
  return n === null || n === undefined ? '—' : NUMBER_FORMAT.format(n);
}

/** An aggregate statistic: 3 decimals, thousands separators above 1000, exponent below 0.001. */
function fmtStat(x) {
  if (x === null || x === undefined) return '—';
  if (typeof x === 'object') return x.$nf || '—';
  if (!isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a >= 1000) return x.toLocaleString('en-US', { maximumFractionDigits: 1 });
  if (a !== 0 && a < 0.001) return x.toExponential(2);
  return x.toFixed(3);
}

/** A raw value: integers as they are, other numbers to 6 significant digits. */
function fmtNum(x) {
  if (Number.isInteger(x)) return String(x);
  return String(parseFloat(x.toPrecision(6)));
}

function fmtPct(part, total) {
  if (!total) return '—';
  const p = (100 * part) / total;
  return (p === 100 || p === 0 ? p.toFixed(0) : p.toFixed(1)) + '%';
}

function fmtDuration(sec) {
  if (sec === null || sec === undefined) return null;
  if (sec < 60) return sec.toFixed(1) + ' s';
  const m = Math.floor(sec / 60);
  if (m < 60) return m + ' min ' + Math.round(sec - m * 60) + ' s';
  return Math.floor(m / 60) + ' h ' + String(m % 60).padStart(2, '0') + ' min';
}

function fmtTime(t) {
  return t ? String(t).replace('T', ' ') : null;
}

/** A metric value as an element: numbers, booleans, labels, boxed non-finite and placeholders. */
function valueEl(v) {
  if (v === null || v === undefined) return h('span', { class: 'val none', text: '—' });
  if (typeof v === 'number') return h('span', { class: 'val', text: fmtNum(v) });
  if (typeof v === 'boolean') return h('span', { class: 'val', text: String(v) });
  if (typeof v === 'string') return h('span', { class: 'val label', title: v, text: v });
  if (typeof v === 'object' && !Array.isArray(v) && typeof v.$nf === 'string') return h('span', { class: 'val nf', text: v.$nf });
  if (typeof v === 'object' && !Array.isArray(v) && typeof v.$o === 'string') return h('span', { class: 'val none', text: '(' + v.$o + ')' });
  return h('span', { class: 'val', text: JSON.stringify(unbox(v)) });
}

/** Replaces boxed non-finite numbers by their names, for display and export. */
function unbox(v) {
  if (Array.isArray(v)) return v.map(unbox);
  if (v && typeof v === 'object') {
    if (typeof v.$nf === 'string' && Object.keys(v).length === 1) return v.$nf;
    const out = {};
    for (const k of Object.keys(v)) out[k] = unbox(v[k]);
    return out;
  }
  return v;
}

function pretty(v) {
  if (typeof v === 'string') return v;
  return JSON.stringify(unbox(v), null, 2);
}

function pre(text) {
  return h('pre', { text: text });
}

function details(summary, body, open) {
  return h('details', { open: !!open }, [h('summary', null, summary), h('div', { class: 'in' }, body)]);
}

function statusName(c) {
  return c === 'c' ? 'completed' : c === 'p' ? 'partial' : c === 'f' ? 'failed' : c === '?' ? 'no trial record' : 'n/a';
}

function badge(c, label) {
  return h('span', { class: 'badge ' + (c || ''), text: label || statusName(c) });
}

function covBar(parts, total, title) {
  const bar = h('span', { class: 'covbar', title: title });
  for (const part of parts) {
    if (!part[1] || !total) continue;
    bar.appendChild(h('span', { class: part[0], style: { width: ((100 * part[1]) / total).toFixed(2) + '%' } }));
  }
  return bar;
}

/** Starts a download of a JSON document (a blob: URL, nothing leaves the page). */
function downloadJson(name, obj) {
  const blob = new Blob([JSON.stringify(obj, null, 2) + '\n'], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(function () { URL.revokeObjectURL(url); }, 5000);
}

function safeFileName(name) {
  return String(name).replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'report';
}
`;
