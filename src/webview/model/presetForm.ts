// The Presets form as the user edits it: the picked preset, its settings as typed, and the load overrides (blank =
// the preset's own). Checked as typed with the shared parsers the host uses, so Run is offered only for what the
// host will accept; the plan shown is the host's, for the settings it was made with.
import type { ParamValue } from '../../shared/experiment';
import { coerceParam, ParamError, parseDuration, parseRowCount, parseThreadList } from '../../shared/params';
import type { PresetLoadInput, PresetPlanView, PresetSummary } from '../../shared/protocol';
import { planTime, type PlanTime } from '../../shared/planTime';
import { stableJson } from './format';
import { checkRepeat } from './validation';

export interface PresetFormState {
  presetId: string;
  /** Only the settings the user changed, as typed (text) or ticked (boolean). */
  settings: Record<string, ParamValue>;
  load: PresetLoadInput;
  /** Repetitions as typed; blank: the preset's own. */
  repeat: string;
}

export function emptyPresetLoad(): PresetLoadInput {
  return { mode: 'server-loop', threads: '', duration: '', rows: '', warmup: '', interval: '' };
}

export function presetForm(presetId: string): PresetFormState {
  return { presetId, settings: {}, load: emptyPresetLoad(), repeat: '' };
}

/** The sampling interval's floor on the host (engine/runSettings MIN_INTERVAL_MS). */
export const MIN_PRESET_INTERVAL_MS = 250;

export interface PresetFormCheck {
  preset: PresetSummary | null;
  /** Every setting's value: typed ones coerced, the rest the defaults. */
  values: Record<string, ParamValue>;
  errors: Record<string, string>;
  loadErrors: Partial<Record<keyof PresetLoadInput | 'length' | 'repeat', string>>;
  /** Repetitions of each arm at each thread count: as typed, or the preset's own. */
  repeat: number;
  valid: boolean;
}

const blank = (s: string) => s.trim() === '';

export function checkPresetForm(form: PresetFormState, presets: readonly PresetSummary[]): PresetFormCheck {
  const preset = presets.find((p) => p.id === form.presetId) ?? null;
  const values: Record<string, ParamValue> = {};
  const errors: Record<string, string> = {};
  for (const p of preset?.settings ?? []) {
    const given = Object.prototype.hasOwnProperty.call(form.settings, p.name) ? form.settings[p.name] : p.default;
    try {
      values[p.name] = coerceParam(p, given);
    } catch (e) {
      errors[p.name] = e instanceof ParamError ? e.problems[0] : (e as Error).message;
      values[p.name] = p.default;
    }
  }
  const loadErrors: PresetFormCheck['loadErrors'] = {};
  const l = form.load;
  const attempt = (k: keyof PresetFormCheck['loadErrors'], f: () => void) => {
    try {
      f();
    } catch (e) {
      loadErrors[k] = (e as Error).message;
    }
  };
  if (!blank(l.threads)) attempt('threads', () => parseThreadList(l.threads));
  if (!blank(l.duration) && !blank(l.rows)) loadErrors.length = 'Give a duration or a row count, not both: clear one of them.';
  if (!blank(l.duration)) attempt('duration', () => parseDuration(l.duration));
  if (!blank(l.rows)) attempt('rows', () => parseRowCount(l.rows));
  if (!blank(l.warmup)) attempt('warmup', () => parseDuration(l.warmup, { allowZero: true }));
  if (!blank(l.interval)) {
    attempt('interval', () => {
      if (parseDuration(l.interval) < MIN_PRESET_INTERVAL_MS)
        throw new Error(
          `sampling interval "${l.interval}" is under ${MIN_PRESET_INTERVAL_MS}ms: sampling faster would disturb what it measures`,
        );
    });
  }
  let repeat = preset?.repeat ?? 1;
  if (!blank(form.repeat ?? '')) {
    const r = checkRepeat(form.repeat);
    if (r.error) loadErrors.repeat = r.error;
    else repeat = r.value;
  }
  const valid = preset !== null && Object.keys(errors).length === 0 && Object.keys(loadErrors).length === 0;
  return { preset, values, errors, loadErrors, repeat, valid };
}

/** What the host gets for a preview: the changed settings as typed (the host checks them again). */
export function presetPayload(form: PresetFormState): { presetId: string; settings: Record<string, ParamValue>; load: PresetLoadInput } {
  return { presetId: form.presetId, settings: { ...form.settings }, load: { ...form.load } };
}

/** What the host gets for a run: the preview's payload and the repetitions (typed, or the preset's own). */
export function presetRunPayload(
  form: PresetFormState,
  check: Pick<PresetFormCheck, 'repeat'>,
): ReturnType<typeof presetPayload> & { repeat: number } {
  return { ...presetPayload(form), repeat: check.repeat };
}

/**
 * How long the preset will take on this plan: its arms' thread counts x the repetitions, each run its measured time
 * and warm-up (typed, or the preset's own). Null while a field is wrong.
 */
export function presetTime(form: PresetFormState, check: PresetFormCheck, plan: Pick<PresetPlanView, 'arms'>): PlanTime | null {
  const p = check.preset;
  if (!p || !check.valid) return null;
  const l = form.load;
  const own = p.load;
  // A typed duration or row count replaces the preset's length; blank takes the preset's.
  const length = !blank(l.duration) ? { d: l.duration, r: '' } : !blank(l.rows) ? { d: '', r: l.rows } : { d: own.duration, r: own.rows };
  return planTime(
    plan.arms,
    {
      durationMs: !blank(length.d) ? parseDuration(length.d) : null,
      rows: blank(length.d) && !blank(length.r) ? parseRowCount(length.r) : null,
      warmupMs: parseDuration(blank(l.warmup) ? own.warmup || '0s' : l.warmup, { allowZero: true }),
    },
    check.repeat,
  );
}

/** The host's plan for this preset, and whether it was made with the settings in the form now. */
export function planOf(plans: readonly PresetPlanView[], form: PresetFormState): { plan: PresetPlanView | null; current: boolean } {
  const plan = plans.find((p) => p.presetId === form.presetId) ?? null;
  if (!plan) return { plan: null, current: false };
  const p = presetPayload(form);
  const same = stableJson(plan.settings) === stableJson(p.settings) && stableJson(plan.load) === stableJson(p.load);
  // The host's first plans are made with the defaults: an untouched form matches them too.
  const untouched =
    Object.keys(p.settings).length === 0 &&
    stableJson(p.load) === stableJson(emptyPresetLoad()) &&
    Object.keys(plan.settings).length === 0 &&
    stableJson(plan.load) === stableJson(emptyPresetLoad());
  return { plan, current: same || untouched };
}

/** The preset's own load, in words, for the placeholders and the summary line. */
export function presetLoadWords(p: PresetSummary): string {
  const length = p.load.duration ? `${p.load.duration} per run` : p.load.rows ? `${p.load.rows} rows per run` : '';
  return [length, `warm-up ${p.load.warmup}`, `sampled every ${p.load.interval}`, p.load.threads].filter(Boolean).join(' · ');
}
