// Two windows of the panel's watch compared: the host reads the watch's samples.jsonl at full resolution (the panel
// holds only the ticks on screen) and answers the watchCompare request with the figures and sentences
// `spinlab watch --compare` prints. A window the watch cannot answer (no tick in it, an end before its start) is the
// answer's error, which the panel shows beside the pickers.
import type { WatchCompareRequest, WatchWindowComparison } from '../../../shared/watchWindows';
import { compareWatchWindows, WatchWindowError } from '../../../engine/watch/windows';
import { NotebookError } from '../../../engine/migrate';
import { UiFailure } from '../../uiErrors';
import type { PanelContext } from '../../panelContext';

/** `dir`: the folder of the panel's running or last watch (null before any). */
export async function compareWatch(s: PanelContext, dir: string | null, req: WatchCompareRequest): Promise<WatchWindowComparison> {
  const v = s.state.watch;
  if (!v || !dir || v.id !== req.watchId) {
    throw new UiFailure({
      message: "That watch is no longer the panel's: only the running or last watch can be compared here.",
      fix: 'Compare windows of the watch shown, or a saved one with spinlab watch --compare DIR --mark NAME.',
    });
  }
  try {
    return await compareWatchWindows(dir, req, v.marks);
  } catch (e) {
    if (e instanceof WatchWindowError || e instanceof NotebookError) throw new UiFailure({ message: e.message });
    throw e;
  }
}
