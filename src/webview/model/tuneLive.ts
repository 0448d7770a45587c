// The tune on screen: the form, and the running (or last) search's state as the host sent it (tuneProgress, or the
// snapshot's active.tune after a reload); and the leaderboard's rows as the views print them.
import type { ActiveExperimentView } from '../../shared/protocol';
import { objectiveText, type TuneInfo, type TuneStanding } from '../../shared/tune';
import { checkTuneProgress, type TuneProblem, type TuneProblemField } from '../../shared/tuneMessages';
import { figureText } from '../../shared/numberText';
import { tuneForm, type TuneFormState } from './tuneForm';

export class TuneModel {
  form: TuneFormState = tuneForm();

  /** The form as kept in the saved view state (the panel hidden and shown): its known fields over the defaults. */
  restoreForm(kept: Partial<TuneFormState> | null | undefined): void {
    if (!kept || typeof kept !== 'object') return;
    const f = tuneForm();
    for (const k of Object.keys(f) as (keyof TuneFormState)[]) {
      if (typeof kept[k] === typeof f[k]) (f as unknown as Record<string, unknown>)[k] = kept[k];
    }
    if (!['throughput', 'p99', 'spins-per-row'].includes(f.objective)) f.objective = 'throughput';
    this.form = f;
  }
  /** Start asked the host to check the form and waits for its answer (tuneCheck). */
  checking = false;
  /** The host's problems with the form as it was when Start was pressed (`key`: that form's payload). */
  refused: { key: string; problems: TuneProblem[] } | null = null;

  /** The host's problem with a field, while the form is still as it was when asked. */
  problem(field: TuneProblemField, key: string): string | null {
    if (this.refused?.key !== key) return null;
    const found = this.refused.problems.filter((p) => p.field === field).map((p) => p.message);
    return found.length ? found.join(' ') : null;
  }

  /** The active experiment's search, when it is a tune. */
  live: { experimentId: string; tune: TuneInfo } | null = null;

  /** A tuneProgress message (checked: a malformed one is dropped); true when it changed what is shown. */
  progress(raw: unknown): boolean {
    const p = checkTuneProgress(raw);
    if (!p) return false;
    this.live = { experimentId: p.experimentId, tune: p.tune };
    return true;
  }

  /** The host's snapshot: its active experiment's tune, or none when another kind of experiment is active. */
  loadSnapshot(active: ActiveExperimentView | null): void {
    if (!active?.experimentId) return;
    if (active.tune) this.live = { experimentId: active.experimentId, tune: active.tune };
    else if (this.live && this.live.experimentId !== active.experimentId) this.live = null;
  }
}

export interface BoardRow {
  config: string;
  label: string;
  current: boolean;
  sessions: number;
  /** "41,200 [39,800, 42,700] rows/s" */
  value: string;
  trials: number;
  /** "racing", "dropped in round 2", "winner", "runner-up". */
  state: string;
  stateKind: TuneStanding['state'];
  why: string | null;
}

/** The objective's unit: rows/s for a scenario that counts rows, its own unit per second otherwise. */
export function tuneUnit(tune: TuneInfo, scenarioUnit: string | null): string {
  return objectiveText(tune.objective, scenarioUnit && scenarioUnit !== 'rows' ? `${scenarioUnit}/s` : 'rows/s').unit;
}

export function standingValue(s: TuneStanding, unit: string): string {
  const e = s.estimate;
  const iv = e.interval ? ` [${figureText(e.interval.low)}, ${figureText(e.interval.high)}]` : '';
  return `${figureText(e.value)}${iv} ${unit}`;
}

/** The standings to show: the result's leaderboard once there is one, else the last round's. */
export function standingsOf(tune: TuneInfo): TuneStanding[] {
  return tune.result?.leaderboard ?? tune.rounds[tune.rounds.length - 1]?.standings ?? [];
}

export function boardRows(tune: TuneInfo, unit: string): BoardRow[] {
  return standingsOf(tune).map((s) => {
    const cfg = tune.configs.find((c) => c.id === s.config);
    const state = s.state === 'dropped' ? (s.droppedIn !== undefined ? `dropped in round ${s.droppedIn}` : 'dropped') : s.state;
    return {
      config: s.config,
      label: cfg?.label ?? s.config,
      current: cfg?.current ?? s.config === 'c0',
      sessions: s.threads,
      value: standingValue(s, unit),
      trials: s.trials,
      state,
      stateKind: s.state,
      why: s.droppedWhy ?? null,
    };
  });
}

/** "Round 2 (race) · 4:10 of 10:00 used"; while it runs, the time since the first round started. */
export function roundWords(tune: TuneInfo, now = Date.now()): string {
  const r = tune.rounds[tune.rounds.length - 1];
  const round = r ? `Round ${r.round} (${r.stage})` : 'Starting';
  const first = tune.rounds[0] ? Date.parse(tune.rounds[0].startedAt) : NaN;
  const used = tune.elapsedMs ?? (Number.isFinite(first) ? now - first : 0);
  return `${round} · ${minutes(used)} of ${minutes(tune.budgetMs)} used`;
}

export function minutes(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
