// The zod pieces several features' messages share: bounded text, parameters, an experiment id, a run's and the
// knobs' settings as the forms type them. Every message from the webview is built from these or its own schema.
import { z } from 'zod';
import { MAX_REPEAT } from './planTime';

const paramValue = z.union([z.number().finite(), z.string().max(256), z.boolean()]);
export const parameters = z.record(z.string().max(64), paramValue).refine((r) => Object.keys(r).length <= 64, 'too many parameters');
export const text = (max: number) => z.string().max(max);
// Letters, digits, '-', '_' and '.', not starting with '.': an id is also a folder name, so '.' and '..' are refused.
export const experimentId = z.string().regex(/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/, 'not an experiment id');

/** Repetitions of each arm at each thread count: a whole number from 1 to MAX_REPEAT. */
export const repeatSchema = z.number().int().min(1).max(MAX_REPEAT);

export const runSettingsSchema = z.object({
  mode: z.enum(['server-loop', 'client-loop']),
  threads: text(200),
  duration: text(32),
  rows: text(32),
  warmup: text(32),
  interval: text(32),
  clientWorkers: text(8).optional(),
});
export const knobSettingsSchema = z.object({
  delayedDurability: z.enum(['unchanged', 'DISABLED', 'ALLOWED', 'FORCED']),
  affinity: text(200),
});

/** A preset and its settings as typed: what a plan is asked for and a preset run is started with. */
export const presetIntent = z.object({
  presetId: z.string().regex(/^[a-z0-9-]{1,64}$/, 'not a preset id'),
  /** Setting name -> value as typed (text) or picked (boolean). */
  settings: parameters,
  /** The preset's load as typed: the same fields as a run's (blank ones take the preset's own). */
  load: runSettingsSchema,
});
