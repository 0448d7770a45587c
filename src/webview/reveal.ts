// Where a reveal from the host (shared/reveal.ts) takes the panel: the sections it opens, the section brought into
// view and the element focused (the picked preset's picker, the Watch section's heading, the experiment's history row).
import type { RevealTarget } from '../shared/reveal';

/** The sections to open (ViewState.open keys). */
export function revealView(r: RevealTarget): Record<string, boolean> {
  switch (r.target) {
    case 'preset': return { presets: true };
    case 'watch': return { watch: true };
    case 'experiment': return { history: true, results: true, analysis: true };
  }
}

/** The section to bring into view and the element in it to focus (CSS selectors). */
export function revealPlace(r: RevealTarget): { section: string; focus: string } {
  switch (r.target) {
    case 'preset': return { section: '#section-presets', focus: '#preset' };
    case 'watch': return { section: '#section-watch', focus: '#section-watch > summary' };
    // Experiment ids are letters, digits, '-', '_' and '.' (the protocol's experimentIdSchema): safe in quotes.
    case 'experiment': return { section: `#history li[data-experiment="${r.id}"]`, focus: `#history li[data-experiment="${r.id}"]` };
  }
}
