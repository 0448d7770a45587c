// Small template helpers shared by the views: collapsible sections, field wrappers with their error line.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ViewContext } from './context';

/**
 * A section's open state, a view choice kept in setState: `open` for the template, `bind` for the <details> element's
 * `.open` and `onToggle` for its `@toggle`. 'toggle' is queued, so it can arrive after a render that already changed
 * the view (a reveal right after a click): it is compared with the view as it is then, and live() makes a render set
 * the element's own state whatever the last render committed.
 */
export function sectionOpen(app: ViewContext, key: string): { open: boolean; bind: unknown; onToggle: (e: Event) => void } {
  const open = app.view.open[key] ?? true;
  const onToggle = (e: Event) => {
    const now = (e.target as HTMLDetailsElement).open;
    if (now !== (app.view.open[key] ?? true)) app.setView({ open: { ...app.view.open, [key]: now } });
  };
  return { open, bind: live(open), onToggle };
}

/** A collapsible section whose open state is a view choice (kept in setState). */
export function section(
  app: ViewContext,
  key: string,
  title: string,
  body: () => TemplateResult | typeof nothing,
  opts: { id?: string; summaryExtra?: TemplateResult } = {},
): TemplateResult {
  const o = sectionOpen(app, key);
  return html`<details class="section" id=${opts.id ?? `section-${key}`} .open=${o.bind} @toggle=${o.onToggle}>
    <summary><span class="section-title">${title}</span>${opts.summaryExtra ?? nothing}</summary>
    <div class="section-body">${o.open ? body() : nothing}</div>
  </details>`;
}

/** A labelled field with its help or error line underneath (the error is linked by aria-describedby). */
export function field(id: string, label: string, control: TemplateResult, error?: string | null, help?: string): TemplateResult {
  return html`<div class="field ${error ? 'invalid' : ''}">
    <label for=${id}>${label}</label>
    ${control}
    ${error ? html`<p class="field-error" id=${`${id}-error`} role="alert">${error}</p>` : help ? html`<p class="field-help" id=${`${id}-help`}>${help}</p>` : nothing}
  </div>`;
}

export function inputValue(e: Event): string {
  return String((e.target as HTMLInputElement).value ?? '');
}

export function checkedOf(e: Event): boolean {
  return Boolean((e.target as HTMLInputElement).checked);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One choice of a native <select>: its value, its label and an optional tooltip. */
export type Choice = readonly [value: string, label: string, title?: string];

/**
 * A native <select>'s options, the current one marked `selected`: lit sets the select's `.value` before its options
 * exist on the first render, so the attribute is what shows the value then. Bind the select's `.value` with live()
 * as well: an option the user has picked ignores its attribute from then on, so a value set by the host (a reveal, a
 * reset) would otherwise not show.
 */
export function options(value: string, choices: readonly Choice[]): TemplateResult[] {
  return choices.map(([v, label, title]) => html`<option value=${v} ?selected=${v === value} title=${title ?? nothing}>${label}</option>`);
}
