// The preset feature's messages (src/host/features/preset): a preset planned for the connected server as its settings
// are typed (a request: the newest question's answer wins), and run as one experiment of several arms.
import { z } from 'zod';
import { fromWebview } from './messages';
import type { PresetPlanView } from './panelState';
import { presetIntent, repeatSchema, runSettingsSchema, text } from './messageSchemas';
import { request } from './requests';

const paramValue = z.union([z.number(), z.string(), z.boolean()]);
const presetPlanViewSchema: z.ZodType<PresetPlanView> = z.object({
  presetId: z.string(),
  settings: z.record(z.string(), paramValue),
  load: runSettingsSchema,
  arms: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      scenarioId: z.string(),
      parameters: z.record(z.string(), paramValue),
      knobs: z.string(),
      mode: z.enum(['server-loop', 'client-loop']),
      threads: z.array(z.number()),
    }),
  ),
  comparisons: z.array(z.object({ a: z.string(), b: z.string(), label: z.string() })),
  notes: z.array(z.string()),
  problems: z.array(z.string()),
});

/** Webview -> host. */
export const PresetToHost = {
  /** Run a preset as one experiment of several arms: confirmed, cancellable, saved to history like a run. */
  presetRun: fromWebview(
    'presetRun',
    // repeat: repetitions of each arm at each thread count (absent: the preset's own).
    presetIntent.extend({ title: text(200).optional(), repeat: repeatSchema.optional() }),
  ),
} as const;

/** Webview asks, host answers. */
export const PresetRequests = {
  /** A preset planned for the connected server with the settings as typed (the defaults' plans are in the state). */
  presetPreview: request('presetPreview', presetIntent, presetPlanViewSchema),
} as const;
