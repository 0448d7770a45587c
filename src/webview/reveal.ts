// Where a reveal from the host (shared/reveal.ts) takes the panel: the sections it opens, the section brought into
// view and the element focused (the picked preset's picker, the Watch section's heading, the experiment's history row).
import type { RevealTarget } from '../shared/reveal';

/** The sections to open (ViewState.open keys). */
export function revealView(r: RevealTarget): Record<string, boolean> {
  switch (r.target) {
    case 'preset':
      return { presets: true };
    case 'watch':
      return { watch: true };
    case 'experiment':
      return { history: true, results: true, analysis: true };
  }
}

/** The section to bring into view and the element in it to focus (CSS selectors). */
export function revealPlace(r: RevealTarget): { section: string; focus: string } {
  switch (r.target) {
    case 'preset':
      return { section: '#section-presets', focus: '#preset' };
    case 'watch':
      return { section: '#section-watch', focus: '#section-watch > summary' };
    // Experiment ids are letters, digits, '-', '_' and '.' (the protocol's experimentIdSchema): safe in quotes.
    case 'experiment':
      return { section: `#history li[data-experiment="${r.id}"]`, focus: `#history li[data-experiment="${r.id}"]` };
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
  // Under the sticky outline bar, however many lines it wraps to, not hidden beneath it.
  const bar = root.ownerDocument.getElementById('outline')?.getBoundingClientRect().height ?? 0;
  const view = root.ownerDocument.defaultView;
  if (view) view.scrollTo({ top: section.getBoundingClientRect().top + view.scrollY - bar - 6 });
  else section.scrollIntoView({ block: 'start' });
  const drawn = (focus as Partial<{ updateComplete: Promise<unknown> }>).updateComplete;
  if (drawn) void drawn.then(() => focus.focus({ preventScroll: true }));
  else focus.focus({ preventScroll: true });
  return true;
}
