// The panel's own messages, which belong to no other feature: the webview (re)loaded and wants everything, and text
// to put on the clipboard (a GRANT, a table as TSV).
import type { FeatureRegistry, PanelFeature } from '../feature';

export class BasicsFeature implements PanelFeature {
  register(r: FeatureRegistry): void {
    const s = r.panel;
    r.on('ready', async () => {
      s.postState(true);
      await s.webviewReady.fire();
    });
    r.on('clipboardCopy', async (p) => {
      await s.ports.copyToClipboard(p.text);
      s.toast('Copied');
    });
  }
}
