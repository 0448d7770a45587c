// The history feature's messages (src/host/features/history): a saved experiment opened beside the live runs, its
// folder revealed, saved as a notebook, or exported.
import { z } from 'zod';
import { fromWebview, toWebview } from './messages';
import type { Experiment } from './experiment';
import type { PresetAnalysisInfo } from './panelState';
import { experimentId } from './messageSchemas';

/** Webview -> host. */
export const HistoryToHost = {
  experimentOpen: fromWebview('experimentOpen', z.object({ id: experimentId })),
  experimentReveal: fromWebview('experimentReveal', z.object({ id: experimentId })),
  /** Save a saved experiment as a Jupyter notebook (the host asks where). */
  experimentSaveNotebook: fromWebview('experimentSaveNotebook', z.object({ id: experimentId })),
  /** Export a saved experiment's samples as CSV or its T-SQL as a script bundle (the host asks for a folder). */
  experimentExport: fromWebview('experimentExport', z.object({ id: experimentId, kind: z.enum(['csv', 'tsql']) })),
} as const;

/** Host -> webview. */
export const HistoryToWebview = {
  /** A saved experiment, in answer to experimentOpen. */
  experimentOpened: toWebview<{ experiment: Experiment; preset?: PresetAnalysisInfo | null }>()('experimentOpened'),
} as const;
