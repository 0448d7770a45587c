// A tune's charts: the search itself (each trial's objective in the order it ran, one colour and marker shape per
// configuration, the rounds marked, a dropped configuration's line ending in a cross) as SVG, and the session curves
// of the leading configurations with their 95% intervals as bands (a scaling chart like any other).
import type { Experiment } from '../../shared/experiment';
import { runFigures } from '../../shared/analysis';
import { cellEstimate, cellsOf } from '../../shared/repeats';
import type { SeriesPayload } from '../../shared/seriesPayload';
import { configName, objectiveValue, standingsOf, tuneObjective } from '../../shared/tuneText';
import { escapeXml, formatShort, niceTicks, PALETTE } from './svgChart';
import { plural } from '../../shared/plural';

export interface SearchTrial {
  /** 1-based, in the order the trials ran. */
  n: number;
  config: string;
  threads: number;
  round: number | null;
  value: number;
}

/** The completed trials that measured the objective, in the order they ran, each with its round. */
export function searchTrials(e: Experiment): SearchTrial[] {
  const t = e.tune;
  if (!t) return [];
  const roundOf = new Map<string, number>();
  for (const r of t.rounds) for (const k of r.trials) roundOf.set(k, r.round);
  const value = objectiveValue(t.objective);
  const out: SearchTrial[] = [];
  [...e.runs]
    .sort((a, b) => a.index - b.index)
    .forEach((r, i) => {
      if (r.status !== 'completed') return;
      const v = value(runFigures(r));
      if (v === null || !Number.isFinite(v)) return;
      const key = `${r.arm.id}@${r.threads}#${r.repetition ?? 1}`;
      out.push({ n: i + 1, config: r.arm.id, threads: r.threads, round: roundOf.get(key) ?? null, value: v });
    });
  return out;
}

/** Marker shapes beside the colours, so configurations stay apart in grey print and for colour-blind readers. */
function mark(shape: number, x: number, y: number, colour: string, title: string): string {
  const f = (n: number) => n.toFixed(1);
  const tip = `<title>${escapeXml(title)}</title>`;
  switch (shape % 4) {
    case 0:
      return `<circle class="trial" cx="${f(x)}" cy="${f(y)}" r="4" fill="${colour}">${tip}</circle>`;
    case 1:
      return `<rect class="trial" x="${f(x - 4)}" y="${f(y - 4)}" width="8" height="8" fill="${colour}">${tip}</rect>`;
    case 2:
      return `<polygon class="trial" points="${f(x)},${f(y - 5)} ${f(x + 5)},${f(y + 4)} ${f(x - 5)},${f(y + 4)}" fill="${colour}">${tip}</polygon>`;
    default:
      return `<polygon class="trial" points="${f(x)},${f(y - 5)} ${f(x + 5)},${f(y)} ${f(x)},${f(y + 5)} ${f(x - 5)},${f(y)}" fill="${colour}">${tip}</polygon>`;
  }
}

/** The search as an SVG: x the trial's place in the run order, y its objective value. */
export function searchChartSvg(e: Experiment): string {
  const t = e.tune!;
  const o = tuneObjective(e);
  const trials = searchTrials(e);
  const standings = standingsOf(t);
  const configs = t.configs.filter((c) => trials.some((x) => x.config === c.id));
  const width = 760;
  const legendRows = Math.ceil(configs.length / 2);
  const m = { left: 64, right: 16, top: 34, bottom: 52 + legendRows * 18 };
  const height = 300 + legendRows * 18;
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;
  const xTicks = niceTicks(1, Math.max(2, trials.length));
  const ys = trials.map((x) => x.value);
  const yTicks = niceTicks(Math.min(0, ...ys), ys.length ? Math.max(...ys) : 1);
  const [x0, x1] = [Math.min(1, xTicks[0]), xTicks[xTicks.length - 1]];
  const [y0, y1] = [yTicks[0], yTicks[yTicks.length - 1]];
  const px = (x: number) => m.left + ((x - x0) / (x1 - x0 || 1)) * w;
  const py = (y: number) => m.top + h - ((y - y0) / (y1 - y0 || 1)) * h;
  const f = (n: number) => n.toFixed(1);
  const title = `The search: ${o.label} of each trial, in the order they ran`;
  const p: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Segoe UI, Helvetica, Arial, sans-serif" font-size="11">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${m.left}" y="20" font-size="13" font-weight="600" fill="#222222">${escapeXml(title)}</text>`,
  ];
  for (const v of yTicks) {
    p.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${f(py(v))}" y2="${f(py(v))}" stroke="#e2e2e2"/>`);
    p.push(`<text x="${m.left - 6}" y="${f(py(v) + 4)}" text-anchor="end" fill="#444444">${escapeXml(formatShort(v))}</text>`);
  }
  for (const v of xTicks.filter((x) => Number.isInteger(x)))
    p.push(`<text x="${f(px(v))}" y="${m.top + h + 16}" text-anchor="middle" fill="#444444">${v}</text>`);
  p.push(`<line x1="${m.left}" x2="${m.left + w}" y1="${m.top + h}" y2="${m.top + h}" stroke="#888888"/>`);
  p.push(`<text x="${m.left + w / 2}" y="${m.top + h + 32}" text-anchor="middle" fill="#222222">trial, in the order it ran</text>`);
  p.push(
    `<text transform="translate(14 ${m.top + h / 2}) rotate(-90)" text-anchor="middle" fill="#222222">${escapeXml(`${o.label} (${o.unit})`)}</text>`,
  );
  // Each round starts at its first trial: a dashed rule, labelled where there is room (the stage when it changes).
  let stage = t.rounds[0]?.stage;
  let labelEnd = -Infinity;
  for (const r of t.rounds) {
    const first = trials.find((x) => x.round === r.round);
    if (!first || first.n === trials[0].n) continue;
    const x = px(first.n - 0.5);
    p.push(`<line class="round" x1="${f(x)}" x2="${f(x)}" y1="${m.top}" y2="${m.top + h}" stroke="#999999" stroke-dasharray="4 3"/>`);
    const label = r.stage !== stage ? `round ${r.round} (${r.stage})` : String(r.round);
    stage = r.stage;
    if (x + 3 < labelEnd) continue;
    labelEnd = x + 3 + label.length * 6 + 4;
    p.push(`<text x="${f(x + 3)}" y="${m.top + 10}" fill="#666666">${escapeXml(label)}</text>`);
  }
  configs.forEach((c, i) => {
    const colour = PALETTE[i % PALETTE.length];
    const own = trials.filter((x) => x.config === c.id);
    const s = standings.find((x) => x.config === c.id);
    const dropped = s?.state === 'dropped';
    if (own.length > 1)
      p.push(
        `<path d="${own.map((x, j) => `${j ? 'L' : 'M'}${f(px(x.n))} ${f(py(x.value))}`).join('')}" fill="none" stroke="${colour}" stroke-width="1.2" stroke-opacity="0.6"/>`,
      );
    for (const x of own)
      p.push(
        mark(i, px(x.n), py(x.value), colour, `${configName(t, c.id)}, ${plural(x.threads, 'session')}: ${formatShort(x.value)} ${o.unit}`),
      );
    if (dropped && own.length) {
      const last = own[own.length - 1];
      const [cx, cy] = [px(last.n) + 9, py(last.value)];
      p.push(
        `<path class="dropped" d="M${f(cx - 4)} ${f(cy - 4)}L${f(cx + 4)} ${f(cy + 4)}M${f(cx - 4)} ${f(cy + 4)}L${f(cx + 4)} ${f(cy - 4)}" stroke="${colour}" stroke-width="2"><title>${escapeXml(`${configName(t, c.id)} dropped in round ${s?.droppedIn ?? '?'}`)}</title></path>`,
      );
    }
    const lx = m.left + (i % 2) * (w / 2);
    const ly = m.top + h + 56 + Math.floor(i / 2) * 18;
    const state = s?.state === 'winner' ? ' (winner)' : dropped ? ` (dropped in round ${s?.droppedIn ?? '?'})` : '';
    const name = configName(t, c.id) + state;
    p.push(mark(i, lx + 5, ly - 7, colour, name).replace('class="trial" ', ''));
    p.push(`<text x="${f(lx + 14)}" y="${ly - 3}" fill="#222222">${escapeXml(name.length > 60 ? name.slice(0, 59) + '…' : name)}</text>`);
  });
  if (!trials.length)
    p.push(`<text x="${m.left + w / 2}" y="${m.top + h / 2}" text-anchor="middle" fill="#666666">no trial completed</text>`);
  p.push('</svg>');
  return p.join('\n');
}

/** The objective against sessions for the leading configurations (at most `top`), each cell with its interval. */
export function sessionCurves(e: Experiment, top = 3): SeriesPayload {
  const t = e.tune!;
  const o = tuneObjective(e);
  const value = objectiveValue(t.objective);
  const cells = cellsOf(e.runs);
  const leaders = standingsOf(t)
    .filter((s) => s.state !== 'dropped')
    .slice(0, top);
  return {
    title: `The leading configurations: ${o.label} against sessions`,
    xLabel: 'sessions',
    yLabel: `${o.label} (${o.unit})`,
    kind: 'scaling',
    series: leaders.map((s) => {
      const pts = cells
        .filter((c) => c.armId === s.config)
        .sort((a, b) => a.threads - b.threads)
        .map((c) => ({ threads: c.threads, est: cellEstimate(c, { value }) }))
        .filter((x) => x.est.value !== null);
      return {
        name: configName(t, s.config),
        points: pts.map((x) => [x.threads, x.est.value as number] as [number, number]),
        band: pts.flatMap((x) =>
          x.est.interval ? [[x.threads, x.est.interval.low, x.est.interval.high] as [number, number, number]] : [],
        ),
      };
    }),
  };
}
