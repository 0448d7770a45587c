// Host -> webview: "show this". The Activity Bar's items open the panel on what they name (a preset, the Watch
// section, a saved experiment, one of the panel's views); the webview switches to its view and section and selects it. A reveal is sent at once and
// again after the webview's next `ready` (a panel just created may not be listening yet); `seq` lets the webview obey
// each reveal once, across a reload too (it keeps the last seq in its saved view state).
import type { PanelView } from './panelViews';

export type RevealTarget =
  { target: 'preset'; id: string } | { target: 'watch' } | { target: 'experiment'; id: string } | { target: 'view'; view: PanelView };

export interface RevealMessage {
  /** Unique per reveal (not per panel: a restored webview keeps the last one it obeyed). */
  seq: string;
  reveal: RevealTarget;
}
