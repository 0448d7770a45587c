// The run feature's messages (src/host/features/run): the Run button's experiment and Stop; and, for any active
// experiment (a run, a preset, a custom workload), each run's start, ticks and end as they happen.
import { z } from 'zod';
import { fromWebview, toWebview } from './messages';
import type { RunRecord, Tick } from './experiment';
import type { ArmRef } from './panelState';
import { knobSettingsSchema, parameters, repeatSchema, runSettingsSchema, text } from './messageSchemas';

/** Webview -> host. */
export const RunToHost = {
  experimentRun: fromWebview(
    'experimentRun',
    z.object({
      scenarioId: z.string().max(64),
      parameters,
      run: runSettingsSchema,
      knobs: knobSettingsSchema,
      /** Repetitions of each thread count (absent: 1). */
      repeat: repeatSchema.optional(),
      title: text(200).optional(),
      question: text(1000).optional(),
    }),
  ),
  /** Stop the running experiment (the engine puts its knobs back). */
  experimentStop: fromWebview('experimentStop', z.object({})),
} as const;

/** Host -> webview. */
export const RunToWebview = {
  /** A run of the active experiment started. */
  runStart: toWebview<{ experimentId: string; index: number; threads: number; arm?: ArmRef; repetition?: number }>()('runStart'),
  /** One new sample interval of the active experiment's current run. */
  runTick: toWebview<{ experimentId: string; index: number; tick: Tick }>()('runTick'),
  /** A run finished: its record (with totals, derived figures and its full timeline). */
  runEnd: toWebview<{ experimentId: string; record: RunRecord }>()('runEnd'),
} as const;
