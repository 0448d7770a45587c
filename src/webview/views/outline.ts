// The panel's outline: a sticky bar naming every section, one Tab stop (the arrow keys move along it), Enter or a
// click opens the section, scrolls it under the bar and puts the focus on its heading. The section in view is marked.
import { html, type TemplateResult } from 'lit';
import type { ViewContext } from './context';
import { rovingFocus, rovingKeydown, rovingTabIndex } from './roving';

/** The sections in page order: their key (their open state and `section-<key>` id) and a short name. */
export const OUTLINE: readonly { key: string; name: string }[] = [
  { key: 'connection', name: 'Connection' },
  { key: 'server', name: 'Server' },
  { key: 'scenario', name: 'Scenario' },
  { key: 'knobs', name: 'Knobs' },
  { key: 'run', name: 'Run' },
  { key: 'presets', name: 'Presets' },
  { key: 'tune', name: 'Best settings' },
  { key: 'charts', name: 'Live charts' },
  { key: 'watch', name: 'Watch' },
  { key: 'stacks', name: 'Why spinning?' },
  { key: 'results', name: 'Results' },
  { key: 'analysis', name: 'Analysis' },
  { key: 'history', name: 'History' },
  { key: 'compare', name: 'Compare' },
  { key: 'scaling', name: 'Scaling' },
];

/** Opens the section (a closed one renders its body on the toggle), brings it under the bar and focuses its heading. */
export function goToSection(app: ViewContext, key: string): void {
  const el = document.getElementById(`section-${key}`) as HTMLDetailsElement | null;
  if (!el) return;
  if (!el.open) {
    el.open = true;
    app.setView({ open: { ...app.view.open, [key]: true } });
  }
  // Under the sticky bar, however many lines it wraps to in a narrow panel.
  const bar = document.getElementById('outline')?.getBoundingClientRect().height ?? 0;
  window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - bar - 6 });
  el.querySelector<HTMLElement>(':scope > summary')?.focus({ preventScroll: true });
  app.setView({ section: key });
}

export function outlineView(app: ViewContext): TemplateResult {
  const keys = OUTLINE.map((s) => s.key);
  return html`<nav class="outline" id="outline" aria-label="Sections of the panel">
    <ul role="list" @keydown=${rovingKeydown('outline')} @focusin=${rovingFocus('outline')}>
      ${OUTLINE.map(
        (s) => html`<li><button class="outline-entry" data-roving-key=${s.key} data-section=${s.key}
          tabindex=${rovingTabIndex('outline', s.key, keys, app.view.section ?? undefined)}
          aria-current=${app.view.section === s.key ? 'location' : 'false'}
          @click=${() => goToSection(app, s.key)}>${s.name}</button></li>`,
      )}
    </ul>
  </nav>`;
}
