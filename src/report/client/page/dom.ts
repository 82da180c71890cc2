import { format } from '../format.js';

/**
 * Report page, part 1 of 4: DOM builders and formatting. Every piece of data reaches the page through
 * `textContent`, `createTextNode` or `setAttribute` with an attribute name chosen by this code; nothing
 * here (or in the other parts) assigns `innerHTML`.
 *
 * @example
 * import { h } from './dom.js';
 */

/** Properties of {@link h}: `text`, `class`, `style`, `on<event>` handlers, or attributes. */
export type Props = Record<string, any> | null | undefined;
/** Children of {@link h}: nodes, strings and numbers (as text), nested lists; null/false skipped. */
export type Kids = Node | string | number | null | undefined | false | Kids[];

export function setProps(el: HTMLElement | SVGElement, props: Props): void {
  if (!props) return;
  for (const key of Object.keys(props)) {
    const v = props[key];
    if (v === null || v === undefined || v === false) continue;
    if (key === 'text') el.textContent = String(v);
    else if (key === 'class') el.setAttribute('class', v);
    else if (key === 'style') Object.assign(el.style, v);
    else if (key.slice(0, 2) === 'on') el.addEventListener(key.slice(2), v);
    else el.setAttribute(key, v === true ? '' : String(v));
  }
}

export function appendKids(el: Element, kids: Kids): void {
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
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props,
  kids?: Kids,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setProps(el, props);
  appendKids(el, kids);
  return el;
}

export function clear<E extends Element>(el: E): E {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function enc(part) {
  return encodeURIComponent(part);
}

export function dec(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** A metric value as an element: numbers, booleans, labels, boxed non-finite and placeholders. */
export function valueEl(v) {
  if (v === null || v === undefined) return h('span', { class: 'val none', text: '—' });
  if (typeof v === 'number') return h('span', { class: 'val', text: format.num(v) });
  if (typeof v === 'boolean') return h('span', { class: 'val', text: String(v) });
  if (typeof v === 'string') return h('span', { class: 'val label', title: v, text: v });
  if (typeof v === 'object' && !Array.isArray(v) && typeof v.$nf === 'string')
    return h('span', { class: 'val nf', text: v.$nf });
  if (typeof v === 'object' && !Array.isArray(v) && typeof v.$o === 'string')
    return h('span', { class: 'val none', text: `(${v.$o})` });
  return h('span', { class: 'val', text: JSON.stringify(unbox(v)) });
}

/** Replaces boxed non-finite numbers by their names, for display and export. */
export function unbox(v) {
  if (Array.isArray(v)) return v.map(unbox);
  if (v && typeof v === 'object') {
    if (typeof v.$nf === 'string' && Object.keys(v).length === 1) return v.$nf;
    const out = {};
    for (const k of Object.keys(v)) out[k] = unbox(v[k]);
    return out;
  }
  return v;
}

export function pretty(v) {
  if (typeof v === 'string') return v;
  return JSON.stringify(unbox(v), null, 2);
}

export function pre(text) {
  return h('pre', { text: text });
}

export function details(summary, body, open?) {
  return h('details', { open: !!open }, [h('summary', null, summary), h('div', { class: 'in' }, body)]);
}

/** Collapsed `details` showing a JSON value, pretty-printed. */
export function jsonDetails(summary, value) {
  return details(summary, pre(pretty(value)));
}

/** A line of muted text (an empty state or a note). */
export function muted(text) {
  return h('div', { class: 'muted', text });
}

/** The faint dash of an empty cell. */
export function dash() {
  return h('span', { class: 'faint', text: '—' });
}

const STATUS_NAMES = new Map([
  ['c', 'completed'],
  ['p', 'partial'],
  ['f', 'failed'],
  ['?', 'no trial record'],
]);

/** The name of a one-letter status of the columns (`-`: no score, `n/a`). */
export function statusName(c) {
  return STATUS_NAMES.get(c) ?? 'n/a';
}

export function badge(c, label?) {
  return h('span', { class: `badge ${c || ''}`, text: label || statusName(c) });
}

/** A bar of `[scored, missing, failed]` counts out of `total`. */
export function covBar(counts: number[], total: number, title: string) {
  const bar = h('span', { class: 'covbar', title: title });
  counts.forEach((n, i) => {
    const width = `${((100 * n) / total).toFixed(2)}%`;
    if (n && total) bar.appendChild(h('span', { class: 'smf'[i], style: { width } }));
  });
  return bar;
}

/** A table cell of class `cls` holding `text`. */
export function cell(cls: string | null, text: string) {
  return h('td', { class: cls, text });
}

/** A `table` with one header row (a heading, or `[heading, class]`) above `rows`. */
export function grid(props: Props, heads: (string | [string, string])[], rows: Kids) {
  const th = (c: string | [string, string]) =>
    typeof c === 'string' ? h('th', { text: c }) : h('th', { text: c[0], class: c[1] });
  return h('table', props, [h('thead', null, h('tr', null, heads.map(th))), h('tbody', null, rows)]);
}

/** Starts a download of a JSON document (a blob: URL, nothing leaves the page). */
export function downloadJson(name, obj) {
  const blob = new Blob([`${JSON.stringify(obj, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

export function safeFileName(name) {
  return (
    String(name)
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .slice(0, 80) || 'report'
  );
}
