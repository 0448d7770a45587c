// A wide table's column chooser: a disclosure ("Columns: 8 of 19") holding one checkbox per column, so the table fits
// the panel by default and any figure is a tick away. One Tab stop while closed.
import { html, type TemplateResult } from 'lit';
import type { ViewContext } from './context';
import { chooseColumn, defaultColumns } from '../model/columnChoice';

export function columnChooser(
  app: ViewContext,
  id: string,
  cols: readonly { key: string; label: string; title: string }[],
  shown: readonly { key: string }[],
): TemplateResult {
  const keys = cols.map((c) => c.key);
  const on = new Set(shown.map((c) => c.key));
  const defaults = defaultColumns(keys);
  return html`<details class="column-chooser" id=${id}>
    <summary>Columns: ${on.size} of ${cols.length}</summary>
    <div class="column-chooser-list" role="group" aria-label="Columns shown">
      ${cols.map(
        (c) => html`<label title=${c.title}><input type="checkbox" data-column=${c.key} .checked=${on.has(c.key)}
          @change=${(e: Event) =>
            app.setView({
              columns: chooseColumn(app.view.columns, keys, c.key, (e.target as HTMLInputElement).checked),
            })} />${c.label}</label>`,
      )}
      <button class="chip" ?disabled=${!Object.keys(app.view.columns ?? {}).some((k) => keys.includes(k))}
        @click=${() => app.setView({ columns: Object.fromEntries(Object.entries(app.view.columns ?? {}).filter(([k]) => !keys.includes(k))) })}>
        Back to the ${defaults.size} default columns</button>
    </div>
  </details>`;
}
