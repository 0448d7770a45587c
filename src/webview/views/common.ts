// Small template helpers shared by the views: collapsible sections, field wrappers with their error line.
import { html, nothing, type TemplateResult } from 'lit';
import type { ViewContext } from './context';

/** A collapsible section whose open state is a view choice (kept in setState). */
export function section(
  app: ViewContext,
  key: string,
  title: string,
  body: () => TemplateResult | typeof nothing,
  opts: { id?: string; summaryExtra?: TemplateResult } = {},
): TemplateResult {
  const open = app.view.open[key] ?? true;
  const onToggle = (e: Event) => {
    const now = (e.target as HTMLDetailsElement).open;
    if (now !== open) app.setView({ open: { ...app.view.open, [key]: now } });
  };
  return html`<details class="section" id=${opts.id ?? `section-${key}`} ?open=${open} @toggle=${onToggle}>
    <summary><span class="section-title">${title}</span>${opts.summaryExtra ?? nothing}</summary>
    <div class="section-body">${open ? body() : nothing}</div>
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
