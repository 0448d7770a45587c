// The panel's views as ARIA tabs in its header: one Tab stop (the shown view's tab); the arrow keys, Home and End
// move along the tabs and show each (automatic activation: a view is cheap to show, it is already drawn, hidden).
import { html, type TemplateResult } from 'lit';
import { PANEL_VIEWS, PANEL_VIEW_INFO, stepView, type PanelView } from '../../shared/panelViews';
import type { ViewContext } from './context';

/** The view a tab-bar key moves to from `from`, or null for a key the bar does not use. */
export function tabKeyTarget(key: string, from: PanelView): PanelView | null {
  if (key === 'ArrowRight') return stepView(from, 1);
  if (key === 'ArrowLeft') return stepView(from, -1);
  if (key === 'Home') return PANEL_VIEWS[0];
  if (key === 'End') return PANEL_VIEWS[PANEL_VIEWS.length - 1];
  return null;
}

export function tabsView(app: ViewContext): TemplateResult {
  const shown = app.shownView();
  const onKey = (e: KeyboardEvent) => {
    // The view shown now, not at the last render: keys pressed faster than a frame each move one tab on.
    const to = tabKeyTarget(e.key, app.shownView());
    if (!to) return;
    e.preventDefault();
    app.showView(to, { focusTab: true });
  };
  return html`<div class="view-tabs" role="tablist" id="view-tabs" aria-label="Views of the panel" @keydown=${onKey}>
    ${PANEL_VIEWS.map(
      (v) => html`<button class="view-tab" role="tab" id=${`tab-${v}`} data-view-tab=${v} aria-controls=${`view-${v}`}
        aria-selected=${v === shown ? 'true' : 'false'} tabindex=${v === shown ? 0 : -1} title=${PANEL_VIEW_INFO[v].question}
        @click=${() => app.showView(v)}>${PANEL_VIEW_INFO[v].name}</button>`,
    )}
  </div>`;
}

/** One view's panel: always drawn, hidden when another is shown, so its controls, charts and scroll keep their state. */
export function tabPanel(app: ViewContext, v: PanelView, body: TemplateResult): TemplateResult {
  return html`<section class="view-panel" role="tabpanel" id=${`view-${v}`} data-view=${v} aria-labelledby=${`tab-${v}`}
    ?hidden=${v !== app.shownView()}>${body}</section>`;
}
