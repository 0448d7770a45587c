// A tune in words and table rows, as the terminal and the notebook both say it: the configurations searched, the
// leaderboard with its intervals, each round in a line, and the budget against the time taken.
import type { RunFigures } from './analysis';
import type { Experiment } from './experiment';
import { thousands } from './numberText';
import { estimateText, excludesOne, fullRatio, namedFigure } from './repeats';
import { objectiveText, type TuneConfig, type TuneInfo, type TuneObjective, type TuneResult, type TuneStanding } from './tune';

/** 512000 -> "8m 32s"; 45000 -> "45s"; 3600000 -> "1h 0m". */
export function minutesText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** "3m 10s of 10m budget used": how far a search bounded by time is, without a trial count it cannot know. */
export function budgetUsedText(usedMs: number, budgetMs: number): string {
  return `${minutesText(usedMs)} of ${minutesText(budgetMs).replace(/ 0[sm]$/, '')} budget used`;
}

/** The objective's name and unit for this experiment: a custom workload counts calls, a scenario rows. */
export function tuneObjective(e: Pick<Experiment, 'custom'> & { tune?: TuneInfo | null }): ReturnType<typeof objectiveText> {
  return objectiveText(e.tune?.objective ?? { kind: 'throughput' }, e.custom ? 'calls/s' : 'rows/s');
}

/** Where a trial's figures hold the objective (null: the trial did not measure it, e.g. p99 without latency). */
export function objectiveValue(o: TuneObjective): (f: RunFigures) => number | null {
  if (o.kind === 'throughput') return (f) => f.rowsPerSec;
  if (o.kind === 'p99') return (f) => f.p99Us;
  return namedFigure('spinsPerRow', o.spinlock).value;
}

const CONSTRAINT_NAMES: Record<TuneInfo['constraints'][number]['figure'], string> = {
  p99Us: 'p99 latency (µs)',
  sessions: 'sessions',
  rowsPerSec: 'throughput',
};

/** "Constraints: p99 latency (µs) <= 2,000; sessions <= 16.", or '' with none. */
export function constraintsLine(t: Pick<TuneInfo, 'constraints'>): string {
  if (!t.constraints.length) return '';
  return `Constraints: ${t.constraints.map((c) => `${CONSTRAINT_NAMES[c.figure]} ${c.op} ${thousands(c.value)}`).join('; ')}.`;
}

/** A configuration's label, marked when it is the server's current settings. */
export function configName(t: Pick<TuneInfo, 'configs'>, id: string): string {
  const c = t.configs.find((x) => x.id === id);
  if (!c) return id;
  return c.current && !/current settings/i.test(c.label) ? `${c.label} (current settings)` : c.label;
}

/** The standings to show: the result's leaderboard, or the last round's when the search ended without one. */
export function standingsOf(t: Pick<TuneInfo, 'rounds' | 'result'>): TuneStanding[] {
  return t.result?.leaderboard ?? t.rounds[t.rounds.length - 1]?.standings ?? [];
}

/** A standing's state; `why` adds why a dropped configuration was dropped (long: a table's notes carry it). */
export function stateText(s: TuneStanding, why = true): string {
  switch (s.state) {
    case 'winner':
      return 'winner';
    case 'runner-up':
      return 'runner-up';
    case 'racing':
      return 'kept to the end';
    case 'dropped':
      return `dropped${s.droppedIn ? ` in round ${s.droppedIn}` : ''}${why && s.droppedWhy ? `: ${s.droppedWhy}` : ''}`;
  }
}

export const LEADERBOARD_HEADERS = (unit: string, label: string) => [
  '#',
  'Configuration',
  'Sessions',
  `${label} (${unit}) [95%]`,
  'Trials',
  'State',
];

/** One row per configuration, best first. */
export function leaderboardRows(t: TuneInfo, why = true): string[][] {
  return standingsOf(t).map((s, i) => [
    String(i + 1),
    configName(t, s.config),
    String(s.threads),
    estimateText(s.estimate),
    String(s.trials),
    stateText(s, why),
  ]);
}

/** Why each dropped configuration was dropped: "other node (numa:1), round 1: slower than the leader by 50% (...)". */
export function droppedLines(t: TuneInfo): string[] {
  return standingsOf(t)
    .filter((s) => s.state === 'dropped' && s.droppedWhy)
    .map((s) => `${configName(t, s.config)}${s.droppedIn ? `, round ${s.droppedIn}` : ''}: ${s.droppedWhy}`);
}

/** "Round 2 (race): 6 trials; run-to-run noise 5%; dropped other node (numa:1)". */
export function roundLines(t: TuneInfo): string[] {
  return t.rounds.map((r) => {
    const dropped = r.standings.filter((s) => s.state === 'dropped' && s.droppedIn === r.round).map((s) => configName(t, s.config));
    const noise = r.noiseCv !== null ? `; run-to-run noise ${(r.noiseCv * 100).toFixed(r.noiseCv < 0.1 ? 1 : 0)}%` : '';
    return `Round ${r.round} (${r.stage}): ${r.trials.length} trial${r.trials.length === 1 ? '' : 's'}${noise}${dropped.length ? `; dropped ${dropped.join(', ')}` : ''}`;
  });
}

/** "Budget 10m 0s; took 8m 32s (85% of it)." */
export function budgetLine(t: Pick<TuneInfo, 'budgetMs' | 'elapsedMs'>): string {
  const took =
    t.elapsedMs === null
      ? 'time taken not recorded'
      : `took ${minutesText(t.elapsedMs)} (${Math.round((t.elapsedMs / t.budgetMs) * 100)}% of it)`;
  return `Budget ${minutesText(t.budgetMs)}; ${took}.`;
}

/** The configurations searched, one row each: what each knob was set to and why. */
export const CONFIG_HEADERS = ['Id', 'Configuration', 'Affinity', 'Why', 'Rows/tx', 'Delayed durability', 'CPUs', 'Sessions tried'];

export function configRows(t: Pick<TuneInfo, 'configs'>): string[][] {
  return t.configs.map((c: TuneConfig) => [
    c.id,
    configName(t, c.id),
    c.affinity ?? 'unchanged',
    c.affinityWhy,
    c.batchSize === null ? '-' : String(c.batchSize),
    c.delayedDurability ?? 'unchanged',
    String(c.cpus),
    c.sessions.join(', '),
  ]);
}

/** The result's apply statements with what was done with them. */
export function applyNote(t: Pick<TuneInfo, 'result'>): string {
  return t.result?.applied
    ? 'The winner was left applied (--apply), with these statements:'
    : 'NOT applied: the server is back on its settings from before the tune. Run these to apply the winner:';
}

/**
 * "More time: ..." as the close says it: what more would settle, and never "nothing left to settle" beside an open
 * verdict (a record saved before the confirmation stage could have an undecided verdict and no moreTime).
 */
export function moreTimeLine(r: Pick<TuneResult, 'moreTime' | 'versus' | 'confirmation'>): string {
  if (r.moreTime) return `More time: ${r.moreTime}`;
  const c = r.confirmation;
  const open = c ? !c.interval || (c.interval.low <= 1 && c.interval.high >= 1) : !!r.versus && !excludesOne(fullRatio(r.versus));
  return open
    ? 'More time: the verdict against the current settings is open; `spinlab rerun` of this tune confirms the winner on fresh trials.'
    : 'More time: nothing left to settle.';
}
