// The history feature's messages (src/host/features/history): a saved experiment opened beside the live runs (a
// request), its folder revealed, saved as a notebook, or exported.
import { z } from 'zod';
import { fromWebview } from './messages';
import type { Experiment } from './experiment';
import type { PresetAnalysisInfo } from './panelState';
import { experimentId } from './messageSchemas';
import { request } from './requests';

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

/** Webview asks, host answers. */
export const HistoryRequests = {
  /** A saved experiment, whole, with the preset views it needs. */
  experimentOpen: request(
    'experimentOpen',
    z.object({ id: experimentId }),
    z.object({ experiment: experimentSchema, preset: presetInfoSchema.nullable() }),
  ),
} as const;
