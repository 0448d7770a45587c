// The History view's trend: whether it is open, the host's last answer (this server's experiments over time, a
// history per workload with its change points, computed on the host by shared/regressionHistory.ts), and which
// workload and cell are shown. Asked again when the list of saved experiments changes while it is open.
import type { HistoryTrend } from '../../shared/historyMessages';
import type { CellHistory, WorkloadHistory } from '../../shared/regressionHistory';

export class HistoryTrendModel {
  open = false;
  pending = false;
  answer: HistoryTrend | null = null;
  error: string | null = null;
  /** The workload and cell picked (null: the default, the most recent workload and its longest cell). */
  workload: string | null = null;
  cell: string | null = null;
  /** The saved experiments the last question was asked for, so a new one asks again. */
  askedFor: string | null = null;

  /** The workload's history shown. */
  history(): WorkloadHistory | null {
    const hs = this.answer?.histories ?? [];
    return hs.find((h) => h.workload === this.workload) ?? hs[0] ?? null;
  }

  /** The cell shown: the one picked, else the one with the most experiments (fewest threads on a tie). */
  shownCell(): CellHistory | null {
    const h = this.history();
    if (!h || !h.cells.length) return null;
    return h.cells.find((c) => c.name === this.cell) ?? h.cells.reduce((a, b) => (b.points.length > a.points.length ? b : a));
  }

  pick(patch: { workload?: string; cell?: string }): void {
    if (patch.workload !== undefined && patch.workload !== this.workload) {
      this.workload = patch.workload;
      this.cell = null;
    }
    if (patch.cell !== undefined) this.cell = patch.cell;
  }

  asked(key: string): void {
    this.askedFor = key;
    this.pending = true;
    this.error = null;
  }

  received(a: { result: HistoryTrend | null; error: string | null }): void {
    this.pending = false;
    this.answer = a.result ?? this.answer;
    this.error = a.error;
  }
}

/** The key of the saved experiments listed: a new or removed one changes it. */
export const historyKey = (ids: readonly string[]): string => ids.join('\n');
