// The Watch mode's live charts: a second instance of the experiment's, whose benign-waits toggle is the host's
// (state.watch.showBenign), so a change is sent there rather than kept here.
import { ToHost, type PanelState, type PayloadOf, type ToHostMap } from '../../shared/protocol';
import { WATCH_THROUGHPUT } from '../model/metrics';
import type { ViewState } from '../model/viewState';
import { LiveChartsView } from './liveCharts';
import type { ThemeColors } from './theme';

export function watchChartsOf(app: {
  readonly theme: ThemeColors;
  readonly view: ViewState;
  readonly state: PanelState | null;
  post<M extends ToHostMap[keyof ToHostMap]>(m: M, payload: PayloadOf<M>): void;
}): LiveChartsView {
  return new LiveChartsView(
    app.theme,
    { ...app.view.toggles, showAllWaits: false },
    {
      onToggles: (t) => {
        const w = app.state?.watch;
        if (w && w.showBenign !== t.showAllWaits) app.post(ToHost.watchBenign, { show: t.showAllWaits });
      },
      onPickRun: () => undefined,
    },
    { idPrefix: 'watch-', runPicker: false, specs: { throughput: WATCH_THROUGHPUT } },
  );
}
