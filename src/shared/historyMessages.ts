// The history feature's messages (src/host/features/history): a saved experiment opened beside the live runs (a
// request), its folder revealed, saved as a notebook, or exported; and this server's experiments over time, each
// workload's throughput per cell with its change points (a request: regressionHistory.ts computes them on the host).
import { z } from 'zod';
import { fromWebview } from './messages';
import type { Experiment } from './experiment';
import type { PresetAnalysisInfo } from './panelState';
import { experimentId } from './messageSchemas';
import { request } from './requests';
import type { WorkloadHistory } from './regressionHistory';

/** Webview -> host. */
export const HistoryToHost = {
  experimentReveal: fromWebview('experimentReveal', z.object({ id: experimentId })),
  /** Save a saved experiment as a Jupyter notebook (the host asks where). */
  experimentSaveNotebook: fromWebview('experimentSaveNotebook', z.object({ id: experimentId })),
  /** Export a saved experiment's samples as CSV or its T-SQL as a script bundle (the host asks for a folder). */
  experimentExport: fromWebview('experimentExport', z.object({ id: experimentId, kind: z.enum(['csv', 'tsql']) })),
} as const;

// A saved experiment is large and was checked when the host read it (history.ts, engine/migrate.ts): the webview
// checks its outline, enough that a wrong answer fails here and not deep inside a chart.
const experimentSchema = z.custom<Experiment>((v) => {
  const e = v as Partial<Experiment> | null;
  return (
    !!e &&
    typeof e === 'object' &&
    typeof e.id === 'string' &&
    typeof e.title === 'string' &&
    Array.isArray(e.runs) &&
    !!e.server &&
    typeof e.server === 'object' &&
    !!e.topology &&
    typeof e.topology === 'object'
  );
}, 'not a saved experiment');
const presetInfoSchema = z.custom<PresetAnalysisInfo>((v) => {
  const p = v as Partial<PresetAnalysisInfo> | null;
  return (
    !!p &&
    typeof p === 'object' &&
    typeof p.id === 'string' &&
    Array.isArray(p.arms) &&
    Array.isArray(p.views) &&
    Array.isArray(p.comparisons)
  );
}, 'not a preset analysis');

const intervalSchema = z.object({ low: z.number(), high: z.number() });
const workloadHistorySchema: z.ZodType<WorkloadHistory> = z.object({
  workload: z.string(),
  experiments: z.number().int().nonnegative(),
  servers: z.array(z.string()),
  note: z.string().nullable(),
  cells: z.array(
    z.object({
      armId: z.string(),
      armLabel: z.string(),
      threads: z.number().int().positive(),
      name: z.string(),
      points: z.array(
        z.object({
          experimentId: z.string(),
          title: z.string(),
          startedAt: z.string(),
          serverName: z.string(),
          simulated: z.boolean(),
          throughput: z.object({
            method: z.enum(['gmean', 'mean', 'single', 'none']),
            n: z.number().int().nonnegative(),
            value: z.number().nullable(),
            interval: intervalSchema.nullable(),
          }),
        }),
      ),
      changes: z.array(
        z.object({
          index: z.number().int().nonnegative(),
          experimentId: z.string(),
          ratio: z.number().positive(),
          interval: intervalSchema,
          before: z.number().int().positive(),
          after: z.number().int().positive(),
          pValue: z.number(),
        }),
      ),
    }),
  ),
});

/** This server's saved experiments over time: a history per workload (the one run last first), and what was skipped. */
export const historyTrendSchema = z.object({
  histories: z.array(workloadHistorySchema),
  /** "exp-12: not readable JSON" for each saved experiment that could not be read. */
  skipped: z.array(z.string()),
});
export type HistoryTrend = z.infer<typeof historyTrendSchema>;

/** Webview asks, host answers. */
export const HistoryRequests = {
  /** A saved experiment, whole, with the preset views it needs. */
  experimentOpen: request(
    'experimentOpen',
    z.object({ id: experimentId }),
    z.object({ experiment: experimentSchema, preset: presetInfoSchema.nullable() }),
  ),
  /** This server's experiments over time, each workload's change points marked. */
  historyTrend: request('historyTrend', z.object({}), historyTrendSchema),
} as const;
