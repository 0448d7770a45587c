// The panel's own messages, which belong to no other feature: the webview (re)loaded and wants everything, it could
// not read a state message and wants it again, and text to put on the clipboard (a GRANT, a table as TSV).
import type { FeatureRegistry, PanelFeature } from '../feature';

export class BasicsFeature implements PanelFeature {
  register(r: FeatureRegistry): void {
    const s = r.panel;
    r.on('ready', async () => {
      s.postState(true);
      await s.webviewReady.fire();
    });
    // The webview refused a state message: a fresh full snapshot, its ticks as asked. The host keeps the plainest
    // form asked for, so a later reload gets what worked rather than failing again first.
    r.on('stateResend', (p) => {
      s.ports.log.warn(`the panel refused a state message (${p.reason}); sending it again, ticks: ${p.ticks}`);
      s.useStateTicks(p.ticks);
      s.postState(true);
    });
    r.on('clipboardCopy', async (p) => {
      await s.ports.copyToClipboard(p.text);
      s.toast('Copied');
    });
  }
}
