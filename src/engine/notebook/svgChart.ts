// Static line charts as SVG text, for notebooks read where Spinlock Lab is not installed (GitHub, Jupyter, nbconvert).
// No browser, no canvas, no native module: the same code runs in the CLI and in the extension host. A white
// background and dark ink so the image reads on light and dark pages alike; the Okabe-Ito palette, which stays
// distinguishable for the common forms of colour blindness.
export interface SvgSeries {
  name: string;
  points: readonly (readonly [number, number])[];
  /** Draw markers at each point (scaling curves have few points). */
  markers?: boolean;
  /** An interval around the line, [x, low, high] per point (repeated runs' 95% interval): a shaded band. */
  band?: readonly (readonly [number, number, number])[];
}

export interface SvgChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  width?: number;
  height?: number;
  /** At most this many points per series are drawn (min/max per bucket keeps the spikes). */
  maxPoints?: number;
  /** Stretches of x with no data (a watch's gaps): shaded, and no line is drawn across one. */
  gaps?: readonly (readonly [number, number])[];
}

export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#7F7F7F', '#000000'];

export function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

/** 1234 -> '1.23k', 0.00042 -> '0.00042', 2.5e9 -> '2.5G': short axis labels. */
export function formatShort(v: number): string {
  if (!Number.isFinite(v)) return '';
  const a = Math.abs(v);
  if (a === 0) return '0';
  const units: [number, string][] = [
    [1e12, 'T'],
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, suffix] of units) if (a >= size) return `${trim(v / size)}${suffix}`;
  return trim(v);
}

function trim(v: number): string {
  const a = Math.abs(v);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : Math.min(6, 2 - Math.floor(Math.log10(a)));
  return Number(v.toFixed(digits)).toString();
}

/** Round tick positions covering [lo, hi]: steps of 1, 2 or 5 times a power of ten. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi === lo) {
    hi = lo === 0 ? 1 : lo + Math.abs(lo) * 0.1;
  }
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const start = Math.floor(lo / step) * step;
  const ticks: number[] = [];
  for (let v = start; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1] < hi) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
  return ticks;
}

/** Keeps the shape of a long series: per bucket of x, the first, min, max and last point in x order. */
export function downsample(points: readonly (readonly [number, number])[], max: number): (readonly [number, number])[] {
  if (points.length <= max) return [...points];
  const buckets = Math.max(1, Math.floor(max / 2));
  const size = points.length / buckets;
  const out: (readonly [number, number])[] = [];
  for (let b = 0; b < buckets; b++) {
    const slice = points.slice(Math.floor(b * size), Math.floor((b + 1) * size));
    if (!slice.length) continue;
    let lo = slice[0];
    let hi = slice[0];
    for (const p of slice) {
      if (p[1] < lo[1]) lo = p;
      if (p[1] > hi[1]) hi = p;
    }
    out.push(...(lo[0] <= hi[0] ? [lo, hi] : [hi, lo]).filter((p, i, a) => i === 0 || p !== a[0]));
  }
  return out;
}

export function svgLineChart(series: readonly SvgSeries[], o: SvgChartOptions): string {
  const width = o.width ?? 760;
  const height = o.height ?? 320;
  const legendRows = Math.ceil(series.length / 3);
  const m = { left: 64, right: 16, top: 34, bottom: 52 + legendRows * 18 };
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;
  const drawn = series.map((s) => ({
    ...s,
    points: downsample(
      s.points.filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1])),
      o.maxPoints ?? 600,
    ),
  }));
  const bands = series.map((s) => (s.band ?? []).filter((b) => b.every((v) => Number.isFinite(v))).sort((a, b) => a[0] - b[0]));
  const xs = drawn.flatMap((s) => s.points.map((p) => p[0]));
  const ys = [...drawn.flatMap((s) => s.points.map((p) => p[1])), ...bands.flatMap((b) => b.flatMap((p) => [p[1], p[2]]))];
  const xTicks = niceTicks(xs.length ? Math.min(...xs) : 0, xs.length ? Math.max(...xs) : 1);
  const yTicks = niceTicks(Math.min(0, ...ys), ys.length ? Math.max(...ys) : 1);
  const [x0, x1] = [xTicks[0], xTicks[xTicks.length - 1]];
  const [y0, y1] = [yTicks[0], yTicks[yTicks.length - 1]];
  const px = (x: number) => m.left + ((x - x0) / (x1 - x0 || 1)) * w;
  const py = (y: number) => m.top + h - ((y - y0) / (y1 - y0 || 1)) * h;
  const f = (n: number) => n.toFixed(1);
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Segoe UI, Helvetica, Arial, sans-serif" font-size="11">`,
  );
  parts.push(`<title>${escapeXml(o.title)}</title>`);
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="${m.left}" y="20" font-size="13" font-weight="600" fill="#222222">${escapeXml(o.title)}</text>`);
  for (const t of yTicks) {
    parts.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${f(py(t))}" y2="${f(py(t))}" stroke="#e2e2e2"/>`);
    parts.push(`<text x="${m.left - 6}" y="${f(py(t) + 4)}" text-anchor="end" fill="#444444">${escapeXml(formatShort(t))}</text>`);
  }
  for (const t of xTicks) {
    parts.push(`<line x1="${f(px(t))}" x2="${f(px(t))}" y1="${m.top + h}" y2="${m.top + h + 4}" stroke="#888888"/>`);
    parts.push(`<text x="${f(px(t))}" y="${m.top + h + 16}" text-anchor="middle" fill="#444444">${escapeXml(formatShort(t))}</text>`);
  }
  parts.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${m.top + h}" y2="${m.top + h}" stroke="#888888"/>`);
  parts.push(`<text x="${m.left + w / 2}" y="${m.top + h + 32}" text-anchor="middle" fill="#222222">${escapeXml(o.xLabel)}</text>`);
  parts.push(
    `<text transform="translate(14 ${m.top + h / 2}) rotate(-90)" text-anchor="middle" fill="#222222">${escapeXml(o.yLabel)}</text>`,
  );
  const gaps = o.gaps ?? [];
  for (const [g0, g1] of gaps) {
    const a = px(Math.max(g0, x0)),
      b = px(Math.min(g1, x1));
    if (b <= a) continue;
    parts.push(`<rect x="${f(a)}" y="${m.top}" width="${f(b - a)}" height="${h}" fill="#eeeeee"/>`);
    parts.push(`<text x="${f((a + b) / 2)}" y="${m.top + 12}" text-anchor="middle" fill="#666666">gap</text>`);
  }
  const across = (a: number, b: number) => gaps.some(([g0, g1]) => g0 < b && g1 > a);
  // Bands first, under every line: the high edge left to right, then the low edge back.
  bands.forEach((b, i) => {
    if (b.length < 2) return;
    const edge = [...b.map((p) => `${f(px(p[0]))},${f(py(p[2]))}`), ...[...b].reverse().map((p) => `${f(px(p[0]))},${f(py(p[1]))}`)];
    parts.push(
      `<polygon points="${edge.join(' ')}" fill="${PALETTE[i % PALETTE.length]}" fill-opacity="0.18" stroke="none"><title>${escapeXml(series[i].name)}: 95% interval</title></polygon>`,
    );
  });
  if (bands.some((b) => b.length >= 2))
    parts.push(`<text x="${m.left + w}" y="20" text-anchor="end" fill="#444444">shaded: 95% interval over repetitions</text>`);
  drawn.forEach((s, i) => {
    const colour = PALETTE[i % PALETTE.length];
    const dash = i >= PALETTE.length ? ' stroke-dasharray="5 3"' : '';
    if (s.points.length) {
      const d = s.points.map((p, j) => `${j && !across(s.points[j - 1][0], p[0]) ? 'L' : 'M'}${f(px(p[0]))} ${f(py(p[1]))}`).join('');
      parts.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.8"${dash}/>`);
      if (s.markers) for (const p of s.points) parts.push(`<circle cx="${f(px(p[0]))}" cy="${f(py(p[1]))}" r="3" fill="${colour}"/>`);
    }
    const lx = m.left + (i % 3) * (w / 3);
    const ly = m.top + h + 56 + Math.floor(i / 3) * 18;
    parts.push(`<rect x="${f(lx)}" y="${ly - 9}" width="12" height="4" fill="${colour}"/>`);
    parts.push(
      `<text x="${f(lx + 16)}" y="${ly - 4}" fill="#222222">${escapeXml(s.name.length > 40 ? s.name.slice(0, 39) + '…' : s.name)}</text>`,
    );
  });
  if (!drawn.some((s) => s.points.length)) {
    parts.push(`<text x="${m.left + w / 2}" y="${m.top + h / 2}" text-anchor="middle" fill="#666666">no data</text>`);
  }
  parts.push('</svg>');
  return parts.join('\n');
}
