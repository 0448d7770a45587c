// Which of the panel's views is shown (shared/panelViews.ts), and each view's scroll position: switching keeps the
// view left as it was (its scroll is saved, its elements stay drawn, hidden), and the choice and the scroll positions
// are kept in the webview's saved state, so hiding, showing and reloading the panel come back to the same place.
// Ctrl+Alt+PageDown / PageUp anywhere in the panel move to the next / previous view.
import { isPanelView, stepView, type PanelView } from '../shared/panelViews';
import type { ViewState } from './model/viewState';

export interface ViewHost {
  readonly view: ViewState;
  setView(patch: Partial<ViewState>): void;
  /** Saves a view choice without drawing (a scroll). */
  keepView(patch: Partial<ViewState>): void;
}

/** True for the keyboard shortcut that moves between views, with its direction. */
export function viewShortcut(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'metaKey' | 'shiftKey'>): 1 | -1 | 0 {
  if (!e.ctrlKey || !e.altKey || e.metaKey || e.shiftKey) return 0;
  return e.key === 'PageDown' ? 1 : e.key === 'PageUp' ? -1 : 0;
}

export class ViewSwitcher {
  /** The scroll to put back once the shown view is drawn (after a switch, or a reload once the state arrived). */
  private restore: number | null;
  private scrollTimer: ReturnType<typeof setTimeout> | null = null;
  private focusTab = false;

  constructor(private readonly host: ViewHost) {
    this.restore = host.view.scroll?.[this.shown] ?? null;
  }

  get shown(): PanelView {
    return isPanelView(this.host.view.tab) ? this.host.view.tab : 'now';
  }

  show(v: PanelView, opts: { focusTab?: boolean; keepScroll?: boolean } = {}): void {
    if (opts.focusTab) this.focusTab = true;
    if (v === this.shown) {
      this.afterRender(true);
      return;
    }
    const scroll = { ...this.host.view.scroll, [this.shown]: window.scrollY };
    this.restore = opts.keepScroll ? null : (scroll[v] ?? 0);
    this.host.setView({ tab: v, scroll });
    // The tab is drawn already (every tab is): focused now, so a key pressed before the next frame lands on it.
    if (opts.focusTab) document.getElementById(`tab-${v}`)?.focus();
  }

  /** After a render: the shown view's scroll put back, its tab focused when the keyboard moved here. */
  afterRender(ready: boolean): void {
    if (this.restore !== null && ready) {
      window.scrollTo(0, this.restore);
      this.restore = null;
    }
    if (this.focusTab) {
      this.focusTab = false;
      document.getElementById(`tab-${this.shown}`)?.focus();
    }
  }

  /** Listens for the shortcut and remembers the scroll as it changes (saved after a pause). */
  install(): void {
    document.addEventListener('keydown', (e) => {
      const step = viewShortcut(e);
      if (!step) return;
      e.preventDefault();
      this.show(stepView(this.shown, step), { focusTab: true });
    });
    window.addEventListener('scroll', () => {
      if (this.scrollTimer) clearTimeout(this.scrollTimer);
      this.scrollTimer = setTimeout(() => {
        this.scrollTimer = null;
        this.host.keepView({ scroll: { ...this.host.view.scroll, [this.shown]: window.scrollY } });
      }, 250);
    });
  }
}
