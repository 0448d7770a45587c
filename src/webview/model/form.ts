// The panel's form as the user edits it: the scenario, its parameters as typed, run settings and knobs, plus the
// connection draft. What the host gets (select / run / connect payloads) is built here from the form, validated.
import type { ParamValue } from '../../shared/experiment';
import {
  connectionProfileSchema,
  DEFAULT_LAB_DATABASE,
  type ConnectionProfile,
  type KnobSettings,
  type PanelState,
  type RunSettings,
  type ScenarioSummary,
} from '../../shared/protocol';
import type { Topology } from '../../shared/types';
import { parseDuration, parseRowCount } from '../../shared/params';
import { planTime, type PlanTime } from '../../shared/planTime';
import { checkKnobs, checkParams, checkRepeat, checkRun, needsXtp, type RunErrors } from './validation';

export interface FormState {
  scenarioId: string;
  /** As typed: strings from text fields, booleans from checkboxes. */
  params: Record<string, ParamValue>;
  run: RunSettings;
  knobs: KnobSettings;
  title: string;
  /** Repetitions of each thread count, as typed. */
  repeat: string;
}

export function formFromSelection(sel: PanelState['selection']): FormState {
  return {
    scenarioId: sel.scenarioId,
    params: { ...sel.parameters },
    run: { ...sel.run },
    knobs: { ...sel.knobs },
    title: '',
    repeat: '1',
  };
}

export interface FormCheck {
  scenario: ScenarioSummary | null;
  values: Record<string, ParamValue>;
  paramErrors: Record<string, string>;
  runErrors: RunErrors;
  threads: number[];
  /** Repetitions of each thread count (1 while the field is wrong: repeatError says why). */
  repeat: number;
  repeatError: string | null;
  /** How long the run will take, said before it starts; null while the settings are wrong. */
  time: PlanTime | null;
  affinityError: string | null;
  affinityDescription: string;
  needsXtp: boolean;
  /** True when nothing blocks a run or a deploy (connection and journal are checked by the caller). */
  valid: boolean;
}

export function checkForm(form: FormState, scenarios: readonly ScenarioSummary[], topology: Topology | null): FormCheck {
  const scenario = scenarios.find((s) => s.id === form.scenarioId) ?? null;
  const params = scenario ? checkParams(scenario, form.params) : { values: {}, errors: {} };
  const run = checkRun(form.run);
  const knobs = checkKnobs(form.knobs, topology);
  const repeat = checkRepeat(form.repeat ?? '1');
  const paramsOk = Object.keys(params.errors).length === 0;
  const runOk = Object.keys(run.errors).length === 0;
  return {
    scenario,
    values: params.values,
    paramErrors: params.errors,
    runErrors: run.errors,
    threads: run.threads,
    repeat: repeat.value,
    repeatError: repeat.error,
    time: runOk && !repeat.error ? runTime(form.run, run.threads, repeat.value) : null,
    affinityError: knobs.affinity,
    affinityDescription: knobs.description,
    needsXtp: scenario ? needsXtp(scenario, params.values) : false,
    valid: scenario !== null && paramsOk && runOk && repeat.error === null && knobs.affinity === null,
  };
}

/** How long a checked run of these settings takes: one arm, its thread counts, the repetitions. */
function runTime(run: RunSettings, threads: number[], repeat: number): PlanTime {
  const duration = run.duration.trim();
  return planTime(
    [{ threads }],
    {
      durationMs: duration ? parseDuration(duration) : null,
      rows: duration ? null : parseRowCount(run.rows),
      warmupMs: parseDuration(run.warmup || '0s', { allowZero: true }),
    },
    repeat,
  );
}

/** The parameters to remember: coerced values where valid, the text as typed where not (so a reload shows it). */
export function paramsForSelect(form: FormState, check: FormCheck): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const [k, v] of Object.entries(form.params)) out[k] = check.paramErrors[k] ? v : (check.values[k] ?? v);
  for (const [k, v] of Object.entries(check.values)) if (!(k in out)) out[k] = v;
  return out;
}

// ---- connection draft

export interface ConnDraft {
  id: string;
  label: string;
  server: string;
  port: string;
  instanceName: string;
  authentication: ConnectionProfile['authentication'];
  user: string;
  domain: string;
  encrypt: ConnectionProfile['encrypt'];
  trustServerCertificate: boolean;
  labDatabase: string;
  password: string;
  savePassword: boolean;
}

export function emptyDraft(): ConnDraft {
  return {
    id: '',
    label: '',
    server: '',
    port: '',
    instanceName: '',
    authentication: 'sql',
    user: '',
    domain: '',
    encrypt: 'mandatory',
    trustServerCertificate: false,
    labDatabase: DEFAULT_LAB_DATABASE,
    password: '',
    savePassword: false,
  };
}

export function draftFromProfile(p: ConnectionProfile | null, savedPasswords: readonly string[]): ConnDraft {
  if (!p) return emptyDraft();
  return {
    id: p.id,
    label: p.label,
    server: p.server,
    port: p.port === null ? '' : String(p.port),
    instanceName: p.instanceName ?? '',
    authentication: p.authentication,
    user: p.user,
    domain: p.domain,
    encrypt: p.encrypt,
    trustServerCertificate: p.trustServerCertificate,
    labDatabase: p.labDatabase,
    password: '',
    savePassword: savedPasswords.includes(p.id),
  };
}

/** The host's draft, with the password typed for that same profile kept (in memory only, never in saved state). */
export function withTypedPassword(next: ConnDraft, prev: ConnDraft): ConnDraft {
  return next.id && next.id === profileIdFor(prev) ? { ...next, password: prev.password } : next;
}

/** A profile id from the server name when the draft has none: letters, digits, - and _. */
export function profileIdFor(d: ConnDraft): string {
  if (d.id) return d.id;
  const base = `${d.server}${d.instanceName ? `-${d.instanceName}` : ''}${d.port ? `-${d.port}` : ''}`.replace(/[^A-Za-z0-9_-]+/g, '-');
  return base.replace(/^-+|-+$/g, '').slice(0, 64) || 'server';
}

export type ProfileResult = { ok: true; profile: ConnectionProfile } | { ok: false; errors: Record<string, string> };

/** The draft as a profile the host's schema accepts, or the problems by field. */
export function profileFromDraft(d: ConnDraft): ProfileResult {
  const errors: Record<string, string> = {};
  let port: number | null = null;
  if (d.port.trim() !== '') {
    const n = Number(d.port.trim());
    if (!Number.isInteger(n) || n < 1 || n > 65535)
      errors.port = `Port "${d.port}" must be a whole number from 1 to 65535, or empty for 1433.`;
    else port = n;
  }
  const candidate = {
    id: profileIdFor(d),
    label: d.label.trim() || d.server.trim(),
    server: d.server,
    port,
    instanceName: d.instanceName.trim() || null,
    authentication: d.authentication,
    user: d.authentication === 'entra' ? '' : d.user,
    domain: d.authentication === 'ntlm' ? d.domain : '',
    encrypt: d.encrypt,
    trustServerCertificate: d.trustServerCertificate,
    labDatabase: d.labDatabase,
  };
  const r = connectionProfileSchema.safeParse(candidate);
  if (!r.success) {
    for (const issue of r.error.issues) {
      const key = String(issue.path[0] ?? 'server');
      errors[key] ??= issue.message;
    }
  }
  if (d.authentication !== 'entra' && d.user.trim() === '') errors.user ??= 'Enter the login name.';
  if (Object.keys(errors).length || !r.success) return { ok: false, errors };
  return { ok: true, profile: r.data };
}
