// The shape of a chart's series in a notebook (written by src/engine/notebook/write.ts), checked before drawing:
// a notebook is a file anyone can edit.

/** The output MIME type the extension's notebook renderer draws (package.json contributes.notebookRenderer). */
export const SERIES_MIME = 'application/vnd.spinlab.series+json';
export interface SeriesPayload {
  title: string;
  xLabel: string;
  yLabel: string;
  kind: 'time' | 'scaling';
  series: {
    name: string;
    points: [number, number][];
    /** The 95% interval around each point of repeated runs, as [x, low, high]: drawn as a shaded band. */
    band?: [number, number, number][];
  }[];
}

const MAX_SERIES = 64;
const MAX_POINTS = 100_000;

export function checkSeriesPayload(raw: unknown): SeriesPayload {
  const fail = (why: string): never => {
    throw new Error(why);
  };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail('the output is not an object');
  const r = raw as Record<string, unknown>;
  for (const k of ['title', 'xLabel', 'yLabel'] as const) if (typeof r[k] !== 'string') fail(`${k} is not text`);
  if (r.kind !== 'time' && r.kind !== 'scaling') fail('kind is neither time nor scaling');
  if (!Array.isArray(r.series) || r.series.length > MAX_SERIES) fail(`series must be a list of at most ${MAX_SERIES}`);
  const series = (r.series as unknown[]).map((s, i) => {
    if (!s || typeof s !== 'object') return fail(`series ${i + 1} is not an object`);
    const { name, points, band } = s as { name?: unknown; points?: unknown; band?: unknown };
    if (typeof name !== 'string') fail(`series ${i + 1} has no name`);
    if (!Array.isArray(points) || points.length > MAX_POINTS) fail(`series ${i + 1} must have at most ${MAX_POINTS} points`);
    const pts = (points as unknown[]).map((p, j) => {
      if (!Array.isArray(p) || p.length !== 2 || !p.every((v) => typeof v === 'number' && Number.isFinite(v))) {
        return fail(`series ${i + 1}, point ${j + 1} is not a pair of numbers`);
      }
      return [p[0], p[1]] as [number, number];
    });
    if (band === undefined) return { name: (name as string).slice(0, 200), points: pts };
    if (!Array.isArray(band) || band.length > MAX_POINTS) fail(`series ${i + 1}'s band must have at most ${MAX_POINTS} points`);
    const bnd = (band as unknown[]).map((p, j) => {
      if (!Array.isArray(p) || p.length !== 3 || !p.every((v) => typeof v === 'number' && Number.isFinite(v))) {
        return fail(`series ${i + 1}, band point ${j + 1} is not three numbers`);
      }
      return [p[0], p[1], p[2]] as [number, number, number];
    });
    return { name: (name as string).slice(0, 200), points: pts, band: bnd };
  });
  return {
    title: (r.title as string).slice(0, 300),
    xLabel: r.xLabel as string,
    yLabel: r.yLabel as string,
    kind: r.kind as SeriesPayload['kind'],
    series,
  };
}
