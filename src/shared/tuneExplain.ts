// Why a tune's winner does better than the server's current settings, from the measurements of both: the spinlocks,
// waits and latches that moved between the two cells (a configuration at a session count), each said with what
// changed between the configurations and the post that describes the effect.
import type { Experiment } from './experiment';
import type { PostId } from './posts';
import { cellsOf, changeWords, compareFigures, excludesOne, figureDefs, type Cell, type FigureDef, type RatioEstimate } from './repeats';
import type { TuneConfig, TuneInfo, TuneReason } from './tune';
import { plural } from './plural';

/** Reasons given at most; the largest moves first. */
const MAX_REASONS = 4;
/** Without an interval (one trial a side) only a move this large (either way) is worth a reason. */
const SINGLE_RUN_MOVE = 2;
/** A move smaller than this (either way) explains little, however sure its interval: not given as a reason. */
const MIN_MOVE = 0.1;
/** A name that is less than this share of its kind on both sides is noise, however far it moved. */
const MIN_SHARE = 0.05;
/** Names read from each side per kind (spinlocks, waits, latches): the largest, where a move matters. */
const TOP_NAMES = 8;

type Side = { config: string; threads: number };

/** The affinity of a configuration in words: "the workers on the log writer's node (numa:0)". */
function affinityWords(c: TuneConfig): string {
  if (c.affinity === null) return "the server's current affinity";
  const spec = c.affinity;
  // The search's reasons end in "(node 0)" where the spec says it better; a spec the user asked for is its own reason.
  const why = c.affinityWhy.trim().replace(/\s*\(node \d+\)$/, '');
  if (!why || /^asked for\b/i.test(why)) return `the workers on ${spec}`;
  const where = /^(on|off|without|in|across)\b/i.test(why) ? why : `on ${why}`;
  return `the workers ${where}${why.toLowerCase().includes(spec.toLowerCase()) ? '' : ` (${spec})`}`;
}

/** What the winner's configuration changes from the current one, as a "with ..." phrase; '' when nothing is known. */
export function changedWords(current: TuneConfig | undefined, winner: TuneConfig | undefined, a: Side, b: Side): string {
  const parts: string[] = [];
  if (current && winner) {
    if (current.affinity !== winner.affinity) parts.push(affinityWords(winner));
    if (current.batchSize !== winner.batchSize && winner.batchSize !== null)
      parts.push(
        `${winner.batchSize} row${winner.batchSize === 1 ? '' : 's'} per transaction${current.batchSize !== null ? ` instead of ${current.batchSize}` : ''}`,
      );
    if (current.delayedDurability !== winner.delayedDurability)
      parts.push(winner.delayedDurability === 'FORCED' ? 'delayed durability FORCED' : "the database's own delayed durability");
  }
  if (a.threads !== b.threads) parts.push(`${plural(b.threads, 'session')} instead of ${a.threads}`);
  if (!parts.length) return '';
  return `with ${parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`}`;
}

/** The post that describes a name moving under this change, or null when none does. */
export function postFor(name: string, current: TuneConfig | undefined, winner: TuneConfig | undefined): PostId | null {
  const affinity = !!current && !!winner && current.affinity !== winner.affinity;
  const batch = !!current && !!winner && current.batchSize !== winner.batchSize;
  const dd = !!current && !!winner && current.delayedDurability !== winner.delayedDurability;
  const core0 = affinity && (/exclude-core0/i.test(winner!.affinity ?? '') || /core 0/i.test(winner!.affinityWhy));
  if (name === 'LOGCACHE_ACCESS' && affinity) return core0 ? 'large-pages' : 'numa-logcache-access';
  if (name === 'XDESMGR' && (batch || affinity)) return 'xdesmgr-big-box';
  if ((name === 'WRITELOG' || name === 'LOGBUFFER' || name === 'LOGFLUSHQ') && (dd || batch)) return 'writelog-at-scale';
  if (name === 'METADATA_SEQUENCE_GENERATOR') return 'ring-buffer';
  return null;
}

const isNamed = (d: FigureDef) => /^(spinsPerRow|waitMsPerRow|latchMsPerRow):/.test(d.key);
const nameOf = (d: FigureDef) => d.key.slice(d.key.indexOf(':') + 1);
const values = (c: Cell, d: FigureDef) => c.figures.map((f) => d.value(f)).filter((v): v is number => v !== null);
/** How far a ratio moved from 1, either way; a name that fell to 0 moved furthest. */
const moved = (r: number) => (r === 0 ? Infinity : Math.abs(Math.log(r)));

/**
 * True when the move is large enough to give as a reason: its interval leaves out 1, or with one run a side (no
 * interval possible) it is 2x. Repeated sides without an interval (a name that was 0 in most runs) are not enough.
 */
function significant(r: RatioEstimate): boolean {
  if (r.ratio === null || Math.abs(r.ratio - 1) < MIN_MOVE) return false;
  if (r.interval) return excludesOne(r);
  return r.method === 'single' && (r.ratio >= SINGLE_RUN_MOVE || r.ratio <= 1 / SINGLE_RUN_MOVE);
}

/** Seen in every run of at least one side: a name in one stray run is not a move, however its ratio reads. */
const everyRun = (d: FigureDef, cells: readonly Cell[]) => cells.some((c) => values(c, d).every((v) => v > 0));

type NamedMap = 'spinsPerRow' | 'waitMsPerRow' | 'latchMsPerRow';
const mean = (v: readonly number[]) => (v.length ? v.reduce((x, y) => x + y, 0) / v.length : 0);

/** The name's share of its kind (all spins, all waits or all latch time per row) on the side where it is largest. */
function share(d: FigureDef, cells: readonly Cell[]): number {
  const map = d.key.slice(0, d.key.indexOf(':')) as NamedMap;
  return Math.max(
    ...cells.map((c) => {
      const total = mean(c.figures.map((f) => Object.values(f[map]).reduce((x, y) => x + y, 0)));
      return total > 0 ? mean(values(c, d)) / total : 0;
    }),
  );
}

function reasonText(d: FigureDef, r: RatioEstimate, change: string): string {
  const ratio = r.ratio as number;
  const up = ratio > 1;
  const words = ratio === 0 ? 'fell to 0' : changeWords(r, { subject: '', figure: d.label, higher: 'higher', lower: 'lower' }, up);
  const single = r.interval ? '' : ` (${r.nA === 1 && r.nB === 1 ? '1 run each' : '1 run on a side'}: no interval)`;
  return `${d.label} ${words}${change ? ` ${change}` : ''}${single}`;
}

/** The named figures that moved most between cell a and cell b, said with `change`, at most `max`. */
function movedNames(a: Cell, b: Cell, change: string, ca: TuneConfig | undefined, cb: TuneConfig | undefined, max: number): TuneReason[] {
  return figureDefs(a, b, TOP_NAMES)
    .filter((d) => isNamed(d) && everyRun(d, [a, b]) && share(d, [a, b]) >= MIN_SHARE)
    .map((d) => ({ d, r: compareFigures(values(a, d), values(b, d)) }))
    .filter((x) => significant(x.r))
    .sort((x, y) => moved(y.r.ratio as number) - moved(x.r.ratio as number))
    .slice(0, max)
    .map(({ d, r }): TuneReason => ({
      text: reasonText(d, r, change),
      figure: d.key,
      ratio: r.ratio === 0 ? null : r.ratio,
      post: postFor(nameOf(d), ca, cb),
    }));
}

type Knob = 'affinity' | 'batchSize' | 'delayedDurability';
const KNOBS: Knob[] = ['affinity', 'batchSize', 'delayedDurability'];
/** Reasons per knob, when the winner's configuration differs from the current one in more than one. */
const PER_KNOB = 2;

const KNOB_NAMES: Record<Knob, string> = {
  affinity: 'affinity',
  batchSize: 'rows per transaction',
  delayedDurability: 'delayed durability',
};

/**
 * One knob at a time: two configurations the search tried that differ in that knob alone (the current settings' value
 * against the winner's, the other knobs at either's), the winner itself when it is one of them, compared at a session
 * count where both ran (the one with the most trials of both), so a move is put down to the knob that made it and not
 * to a session count. A knob with no such pair at a common session count is said to be unknown, in one line.
 */
function byKnob(cells: readonly Cell[], configs: readonly TuneConfig[], ca: TuneConfig, cb: TuneConfig): TuneReason[] {
  const differ = KNOBS.filter((k) => ca[k] !== cb[k]);
  if (differ.length < 2) return [];
  /** The cells of x and y at the session count where both ran most (the fewer side's trials), or null. */
  const common = (x: string, y: string): [Cell, Cell] | null => {
    const xs = cells.filter((c) => c.armId === x);
    let out: [Cell, Cell] | null = null;
    for (const b of cells.filter((c) => c.armId === y)) {
      const a = xs.find((c) => c.threads === b.threads);
      if (a && (!out || Math.min(a.runs.length, b.runs.length) > Math.min(out[0].runs.length, out[1].runs.length))) out = [a, b];
    }
    return out;
  };
  const unknown: Knob[] = [];
  const out = differ.flatMap((k) => {
    const others = KNOBS.filter((x) => x !== k);
    const pairs = configs
      .filter((y) => y[k] === cb[k] && others.every((x) => y[x] === ca[x] || y[x] === cb[x]))
      .flatMap((y) => configs.filter((x) => x[k] === ca[k] && others.every((o) => x[o] === y[o])).map((x) => ({ x, y })))
      .sort((p, q) => Number(q.y.id === cb.id) - Number(p.y.id === cb.id));
    for (const { x, y } of pairs) {
      const at = common(x.id, y.id);
      if (!at) continue;
      const [a, b] = at;
      const change = changedWords(x, y, { config: x.id, threads: a.threads }, { config: y.id, threads: b.threads });
      return movedNames(a, b, change, x, y, PER_KNOB);
    }
    unknown.push(k);
    return [];
  });
  if (!unknown.length) return out;
  const names = unknown.map((k) => KNOB_NAMES[k]).join(' and ');
  const cannot: TuneReason = {
    text: `What ${names} did on ${unknown.length === 1 ? 'its' : 'their'} own cannot be told: the search ran no two configurations differing in ${unknown.length === 1 ? 'it' : 'one of them'} alone at the same session count, so what moved is put down to the whole change.`,
    figure: `knob:${unknown.join(',')}`,
    ratio: null,
    post: null,
  };
  return [...out, cannot];
}

/**
 * The spinlocks, waits and latches that moved most between the current settings' trials and the winner's: knob by
 * knob first (when the search tried the configurations between them), then for the whole change.
 */
export function tuneReasons(
  e: Pick<Experiment, 'runs'> & { tune?: Pick<TuneInfo, 'configs'> | null },
  winner: Side,
  current: Side | null,
): TuneReason[] {
  if (!current || (current.config === winner.config && current.threads === winner.threads)) return [];
  const cells = cellsOf(e.runs);
  const find = (s: Side) => cells.find((c) => c.armId === s.config && c.threads === s.threads);
  const a = find(current);
  const b = find(winner);
  if (!a || !b) return [];
  const configs = e.tune?.configs ?? [];
  const ca = configs.find((c) => c.id === current.config);
  const cb = configs.find((c) => c.id === winner.config);
  const change = changedWords(ca, cb, current, winner);
  const all = ca && cb ? byKnob(cells, configs, ca, cb) : [];
  const knobs = all.filter((r) => !r.figure.startsWith('knob:'));
  const cannot = all.filter((r) => r.figure.startsWith('knob:'));
  const seen = new Set(knobs.map((r) => r.figure));
  const named = movedNames(a, b, change, ca, cb, MAX_REASONS).filter((r) => !seen.has(r.figure) || !knobs.length);
  const cpu = figureDefs(a, b, 0).find((d) => d.key === 'cpuMsPerRow');
  const cpuRatio = cpu ? compareFigures(values(a, cpu), values(b, cpu)) : null;
  const cpuLine: TuneReason[] =
    cpu && cpuRatio && cpuRatio.ratio !== null && Math.abs(cpuRatio.ratio - 1) >= MIN_MOVE && excludesOne(cpuRatio)
      ? [{ text: reasonText(cpu, cpuRatio, change), figure: cpu.key, ratio: cpuRatio.ratio, post: null }]
      : [];
  return [...knobs, ...named, ...cpuLine, ...cannot];
}
