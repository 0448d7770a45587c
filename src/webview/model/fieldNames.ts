// The fields a blocker names: "Fix the fields marked in red" is no help when the red field is in a closed section or
// was never drawn, so each form's blocker says which fields, by their labels (and section, when it is another one).
import type { FormCheck } from './form';
import type { PresetFormCheck } from './presetForm';

const RUN_LABELS: Record<string, string> = {
  mode: 'Load mode',
  threads: 'Threads',
  duration: 'Duration per run',
  rows: 'Rows per session',
  length: 'Duration per run or Rows per session',
  warmup: 'Warm-up',
  interval: 'Sample every',
};

const PRESET_LABELS: Record<string, string> = {
  threads: 'Threads (every arm)',
  duration: 'Duration per run',
  rows: 'Rows per session',
  length: 'Duration per run or Rows per session',
  warmup: 'Warm-up',
  interval: 'Sample every',
  repeat: 'Repetitions',
};

const CUSTOM_LABELS: Record<string, string> = {
  sql: 'T-SQL',
  sqlFile: 'Or a .sql file',
  database: 'Database',
  paramsCsv: 'CSV file',
  paramsQuery: 'Parameter query',
  paramsOrder: 'Row order',
  paramsScope: 'Rows per',
  iterations: 'Iterations',
  duration: 'Duration',
  threads: 'Threads',
  thinkTime: 'Think time',
  queryTimeout: 'Query timeout',
  repeat: 'Repetitions',
};

const TUNE_LABELS: Record<string, string> = {
  spinlock: 'Spinlock',
  budget: 'Budget',
  sessions: 'Sessions',
  affinity: 'CPU affinity candidates',
  batchSizes: 'Rows per transaction',
  trial: 'Trial length',
};

export function tuneFormFields(errors: Record<string, string | undefined>): string[] {
  return Object.keys(errors)
    .filter((k) => errors[k])
    .map((k) => TUNE_LABELS[k] ?? k);
}

/** The Run section's invalid fields, those of other sections with the section's name. */
export function runFormFields(check: FormCheck): string[] {
  const out: string[] = [];
  if (!check.scenario) out.push('Scenario');
  for (const k of Object.keys(check.paramErrors)) out.push(`${k} (Scenario section)`);
  for (const k of Object.keys(check.runErrors)) out.push(RUN_LABELS[k] ?? k);
  if (check.repeatError) out.push('Repetitions');
  if (check.affinityError) out.push('CPU affinity (Knobs section)');
  return out;
}

export function presetFormFields(check: PresetFormCheck): string[] {
  return [...Object.keys(check.errors), ...Object.keys(check.loadErrors).map((k) => PRESET_LABELS[k] ?? k)];
}

export function customFormFields(errors: Record<string, string>): string[] {
  return Object.keys(errors).map((k) => CUSTOM_LABELS[k] ?? k);
}

/** "Fix Threads and CPU affinity (Knobs section) first: marked in red." */
export function fixFirst(fields: readonly string[]): string {
  if (!fields.length) return 'Fix the settings first.';
  const list = fields.length === 1 ? fields[0] : `${fields.slice(0, -1).join(', ')} and ${fields[fields.length - 1]}`;
  return `Fix ${list} first (marked in red).`;
}
