import { html, type Raw } from '../html.js';
import { when } from './format.js';

/** One stacked series: its key in the points, its label, and its colour (a `fill-*` class of the stylesheet). */
export interface Series {
  key: string;
  label: string;
  fill: string;
}

/** Buckets a chart may use, smallest first: the first that cuts the span into at most 14 is taken. */
const SIZES = [60_000, 300_000, 900_000, 3_600_000, 21_600_000, 86_400_000, 7 * 86_400_000, 30 * 86_400_000, 365 * 86_400_000];
const W = 480;
const H = 190;
const LEFT = 34;
const BOTTOM = 24;
const TOP = 8;

/** A round top for the y axis: 1, 2, 5, 10, 20, 50, ... */
function niceMax(n: number): number {
  if (n <= 4) return Math.max(n, 1);
  const power = 10 ** Math.floor(Math.log10(n));
  return [1, 2, 5, 10].map((f) => f * power).find((top) => top >= n)!;
}

/** A bucket's label: a day, or a day and time for buckets shorter than a day. */
const label = (at: number, size: number) => (size >= 86_400_000 ? when(at).slice(0, 10) : when(at).slice(5, 16));

/**
 * A stacked bar chart of things over virtual time (each point: when, and which series), as SVG
 * drawn on the server: it needs no script. Named for a screen reader by its title and a
 * description of the totals, and followed by the same numbers as a table.
 */
export function stackedChart(
  id: string,
  title: string,
  series: readonly Series[],
  points: readonly { at: number; key: string }[],
  now: number,
  empty: string,
): Raw {
  if (points.length === 0)
    return html`<section class="card chart" aria-labelledby="${id}-h"><h3 id="${id}-h">${title}</h3><p class="muted" data-testid="${id}-empty">${empty}</p></section>`;
  let from = now;
  for (const p of points) if (p.at < from) from = p.at;
  const to = Math.max(now, from);
  const size = SIZES.find((s) => (to - from) / s < 14) ?? SIZES[SIZES.length - 1]!;
  const start = Math.floor(from / size) * size;
  const count = Math.floor((to - start) / size) + 1;
  const buckets = Array.from({ length: count }, () => new Map<string, number>());
  const totals = new Map<string, number>();
  for (const p of points) {
    const bucket = buckets[Math.min(count - 1, Math.floor((p.at - start) / size))]!;
    bucket.set(p.key, (bucket.get(p.key) ?? 0) + 1);
    totals.set(p.key, (totals.get(p.key) ?? 0) + 1);
  }
  const shown = series.filter((s) => totals.has(s.key));
  const top = niceMax(Math.max(...buckets.map((b) => [...b.values()].reduce((a, n) => a + n, 0))));
  const plotW = W - LEFT - 8;
  const plotH = H - TOP - BOTTOM;
  const step = plotW / count;
  const barW = Math.max(2, Math.min(48, step * 0.7));
  const y = (n: number) => TOP + plotH - (n / top) * plotH;
  const bars = buckets.flatMap((bucket, i) => {
    let base = 0;
    const x = LEFT + i * step + (step - barW) / 2;
    return shown.map((s) => {
      const n = bucket.get(s.key) ?? 0;
      if (n === 0) return '';
      const rect = html`<rect class="${s.fill}" x="${x.toFixed(1)}" y="${y(base + n).toFixed(1)}" width="${barW.toFixed(1)}" height="${(y(base) - y(base + n)).toFixed(1)}" rx="2"><title>${label(start + i * size, size)}: ${n} ${s.label}</title></rect>`;
      base += n;
      return rect;
    });
  });
  const ticks = [0, top / 2, top].filter((n, i, all) => Number.isInteger(n) && all.indexOf(n) === i);
  const xLabels = [...new Set([0, Math.floor((count - 1) / 2), count - 1])];
  const summary = `${points.length} in all, from ${when(from)} to ${when(to)}: ${shown.map((s) => `${totals.get(s.key)} ${s.label}`).join(', ')}.`;
  return html`<section class="card chart" aria-labelledby="${id}-h" data-testid="${id}"><h3 id="${id}-h">${title}</h3>
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-title ${id}-desc" preserveAspectRatio="xMidYMid meet">
      <title id="${id}-title">${title}</title><desc id="${id}-desc">${summary}</desc>
      ${ticks.map((n) => html`<line class="grid-line" x1="${LEFT}" x2="${W - 8}" y1="${y(n).toFixed(1)}" y2="${y(n).toFixed(1)}"/><text x="${LEFT - 6}" y="${(y(n) + 4).toFixed(1)}" text-anchor="end">${n}</text>`)}
      <line class="axis" x1="${LEFT}" x2="${W - 8}" y1="${TOP + plotH}" y2="${TOP + plotH}"/>
      ${bars}
      ${xLabels.map((i) => {
        // Centred under its bar, but kept inside the picture (about 7 units a character at the phone's larger type).
        const text = label(start + i * size, size);
        const half = text.length * 3.8;
        const x = Math.min(W - 4 - half, Math.max(half + 4, LEFT + i * step + step / 2));
        return html`<text x="${x.toFixed(1)}" y="${H - 6}" text-anchor="middle">${text}</text>`;
      })}
    </svg>
    <ul class="legend">${shown.map((s) => html`<li><svg viewBox="0 0 10 10" aria-hidden="true"><rect class="${s.fill}" width="10" height="10" rx="2"/></svg>${s.label} <strong>${totals.get(s.key)}</strong></li>`)}</ul>
    <details class="table"><summary>As a table</summary>
      <div class="scroll" role="region" tabindex="0" aria-label="${title}, by ${size >= 86_400_000 ? 'day' : 'time'}"><table><caption class="visually-hidden">${title}</caption><thead><tr><th scope="col">From</th>${shown.map((s) => html`<th scope="col" class="num">${s.label}</th>`)}</tr></thead>
      <tbody>${buckets.map((b, i) => (b.size === 0 ? '' : html`<tr><td>${when(start + i * size)}</td>${shown.map((s) => html`<td class="num">${b.get(s.key) ?? 0}</td>`)}</tr>`))}</tbody></table></div>
    </details></section>`;
}
