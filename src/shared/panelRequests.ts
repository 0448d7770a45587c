// The questions the panel's webview asks the host (requests.ts): each names its params schema, checked by the host,
// and its result schema, checked by the webview when the answer arrives.
import { z } from 'zod';
import type { Experiment } from './experiment';
import { experimentIdSchema, presetIntentSchema, runSettingsSchema, type PresetAnalysisInfo, type PresetPlanView } from './protocol';
import { request } from './requests';
import { watchCompareSchema, type WatchWindowComparison } from './watchWindows';

const paramValue = z.union([z.number(), z.string(), z.boolean()]);

const presetPlanViewSchema: z.ZodType<PresetPlanView> = z.object({
  presetId: z.string(),
  settings: z.record(z.string(), paramValue),
  load: runSettingsSchema,
  arms: z.array(z.object({
    id: z.string(), label: z.string(), scenarioId: z.string(), parameters: z.record(z.string(), paramValue), knobs: z.string(),
    mode: z.enum(['server-loop', 'client-loop']), threads: z.array(z.number()),
  })),
  comparisons: z.array(z.object({ a: z.string(), b: z.string(), label: z.string() })),
  notes: z.array(z.string()),
  problems: z.array(z.string()),
});

const windowSpanSchema = z.object({ label: z.string(), described: z.string(), fromT: z.number(), toT: z.number(), ticks: z.number(), seconds: z.number() });
const watchWindowComparisonSchema: z.ZodType<WatchWindowComparison> = z.object({
  a: windowSpanSchema,
  b: windowSpanSchema,
  figures: z.array(z.object({
    key: z.string(), label: z.string(), unit: z.string(), a: z.number().nullable(), b: z.number().nullable(), changePct: z.number().nullable(),
    direction: z.enum(['higher-better', 'lower-better']), note: z.string().optional(),
  })),
  summary: z.array(z.string()),
});

// A saved experiment is large and was checked when the host read it (history.ts, engine/migrate.ts): the webview
// checks its outline, enough that a wrong answer fails here and not deep inside a chart.
const experimentSchema = z.custom<Experiment>((v) => {
  const e = v as Partial<Experiment> | null;
  return !!e && typeof e === 'object' && typeof e.id === 'string' && typeof e.title === 'string' && Array.isArray(e.runs)
    && !!e.server && typeof e.server === 'object' && !!e.topology && typeof e.topology === 'object';
}, 'not a saved experiment');
const presetInfoSchema = z.custom<PresetAnalysisInfo>((v) => {
  const p = v as Partial<PresetAnalysisInfo> | null;
  return !!p && typeof p === 'object' && typeof p.id === 'string' && Array.isArray(p.arms) && Array.isArray(p.views) && Array.isArray(p.comparisons);
}, 'not a preset analysis');

export const PanelRequests = {
  /** A preset planned for the connected server with the settings as typed (the defaults' plans are in the state). */
  presetPreview: request('presetPreview', presetIntentSchema, presetPlanViewSchema),
  /** Window A against window B of the panel's watch, from every tick on disk; a window the watch cannot answer is the error. */
  watchCompare: request('watchCompare', watchCompareSchema, watchWindowComparisonSchema),
  /** A saved experiment, whole, with the preset views it needs. */
  experimentOpen: request('experimentOpen', z.object({ id: experimentIdSchema }),
    z.object({ experiment: experimentSchema, preset: presetInfoSchema.nullable() })),
} as const;

export type PanelRequestMap = typeof PanelRequests;
