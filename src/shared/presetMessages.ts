// The preset feature's messages (src/host/features/preset): a preset planned for the connected server as its settings
// are typed, and run as one experiment of several arms.
import { z } from 'zod';
import { fromWebview } from './messages';
import { parameters, runSettingsSchema, text } from './messageSchemas';

const presetIntent = z.object({
  presetId: z.string().regex(/^[a-z0-9-]{1,64}$/, 'not a preset id'),
  /** Setting name -> value as typed (text) or picked (boolean). */
  settings: parameters,
  /** The preset's load as typed: the same fields as a run's (blank ones take the preset's own). */
  load: runSettingsSchema,
});

/** Webview -> host. */
export const PresetToHost = {
  /** Plan a preset for this server with these settings (the answer is its entry in state.presetPlans). */
  presetPreview: fromWebview('presetPreview', presetIntent),
  /** Run a preset as one experiment of several arms: confirmed, cancellable, saved to history like a run. */
  presetRun: fromWebview('presetRun', presetIntent.extend({ title: text(200).optional() })),
} as const;
