// The History view's trend: the experiments the panel lists for this server (state.history, read from the results
// folder), read whole, grouped by workload and lined up over time with their change points, the figures
// `spinlab history` prints (shared/regressionHistory.ts). A tune is left out (its arms are the configurations it
// tried); a record that cannot be read is named in the answer and the log.
import type { Experiment } from '../../../shared/experiment';
import type { HistoryTrend } from '../../../shared/historyMessages';
import { groupByWorkload, startOf, workloadHistory } from '../../../shared/regressionHistory';
import { readExperiment } from '../../history';
import { UiFailure } from '../../uiErrors';
import type { PanelContext } from '../../panelContext';

export function historyTrend(s: PanelContext): HistoryTrend {
  if (!s.connection()) throw new UiFailure({ message: 'Connect to a server to see its experiments over time.', action: 'connect' });
  const folder = s.ports.settings().resultsFolder;
  const experiments: Experiment[] = [];
  const skipped: string[] = [];
  for (const h of s.state.history) {
    if (h.kind === 'tune') continue;
    try {
      experiments.push(readExperiment(folder, h.id));
    } catch (e) {
      skipped.push(`${h.id}: ${(e as Error).message.split('\n')[0]}`);
      s.ports.log.warn(`history trend: skipped ${h.id}: ${(e as Error).message}`);
    }
  }
  const last = (es: Experiment[]) => es.map(startOf).reduce((a, b) => (b > a ? b : a), '');
  const groups = groupByWorkload(experiments).sort((a, b) => (last(a.experiments) < last(b.experiments) ? 1 : -1));
  return { histories: groups.map((g) => workloadHistory(g.experiments)), skipped };
}
