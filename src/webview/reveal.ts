// Where a reveal from the host (shared/reveal.ts) takes the panel: the sections it opens, the section brought into
// view and the element focused (the picked preset's picker, the Watch section's heading, the experiment's history row,
// a view's tab). The view holding the section is shown first (viewOf), whatever asked: a reveal or an error.
import { isPanelView, type PanelView } from '../shared/panelViews';
import type { RevealTarget } from '../shared/reveal';

/** The view (tab panel) that holds the element `selector` names, when it is drawn in one. */
export function viewOf(root: HTMLElement, selector: string): PanelView | null {
  const v = root.querySelector(selector)?.closest<HTMLElement>('[data-view]')?.dataset.view;
  return isPanelView(v) ? v : null;
}

/** The sections to open (ViewState.open keys). */
export function revealView(r: RevealTarget): Record<string, boolean> {
  switch (r.target) {
    case 'preset':
      return { presets: true };
    case 'watch':
      return { watch: true };
    case 'experiment':
      return { history: true, results: true, analysis: true };
    case 'view':
      return {};
  }
}

/** The section to bring into view and the element in it to focus (CSS selectors). */
export function revealPlace(r: RevealTarget): { section: string; focus: string } {
  switch (r.target) {
    case 'preset':
      return { section: '#section-presets', focus: '#preset' };
    case 'watch':
      return { section: '#section-watch', focus: '#section-watch > summary' };
    // Its results: the reveal waits for them (the picker names it once the experiment is opened).
    case 'experiment':
      return { section: '#section-results', focus: '#results-experiment' };
    // A view alone keeps its own scroll: only its tab is focused.
    case 'view':
      return { section: `#tab-${r.view}`, focus: `#tab-${r.view}` };
  }
}

/**
 * Brings a reveal's place into view and focus once it is drawn; false while it is not (it may wait for the state or
 * an answer). A control just drawn (a section opened) takes focus once it has rendered itself (lit's updateComplete).
 */
export function bringIntoView(root: HTMLElement, place: { section: string; focus: string }): boolean {
  const section = root.querySelector<HTMLElement>(place.section);
  const focus = root.querySelector<HTMLElement>(place.focus);
  if (!section || !focus) return false;
  if (section === focus && focus.getAttribute('role') === 'tab') {
    focus.focus();
    return true;
  }
  // Under the sticky header (its tabs), however many lines it wraps to, not hidden beneath it.
  const bar = root.ownerDocument.getElementById('panel-header')?.getBoundingClientRect().height ?? 0;
  const view = root.ownerDocument.defaultView;
  if (view) view.scrollTo({ top: section.getBoundingClientRect().top + view.scrollY - bar - 6 });
  else section.scrollIntoView({ block: 'start' });
  const drawn = (focus as Partial<{ updateComplete: Promise<unknown> }>).updateComplete;
  if (drawn) void drawn.then(() => focus.focus({ preventScroll: true }));
  else focus.focus({ preventScroll: true });
  return true;
}
