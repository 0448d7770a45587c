// A chart's legend in HTML beside its canvas, instead of chart.js's canvas Legend plugin (which lays itself out
// again on every update: ~1/8 of a live tick). Written only when the series shown or their colours change. Each
// entry is a toggle button (Tab to reach, Enter or Space or a click to hide or show the series), as the canvas
// legend's click was; aria-pressed says whether the series is shown. The entries are one Tab stop (arrow keys move).
import type { XYDataset } from './chartSetup';
import { rovingFocus, rovingKeydown, rovingTabIndex } from './roving';

let legends = 0;

export class ChartLegend {
  readonly element: HTMLElement;
  /** Series the user hid, by name: kept across redraws that rebuild the datasets. */
  readonly hidden = new Set<string>();
  private key = '';
  private readonly group = `legend-${++legends}`;

  constructor(
    label: string,
    private readonly onToggle: () => void,
  ) {
    this.element = document.createElement('div');
    this.element.className = 'chart-legend';
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-label', `${label} (arrow keys move between the series)`);
    this.element.addEventListener('keydown', rovingKeydown(this.group));
    this.element.addEventListener('focusin', rovingFocus(this.group));
  }

  /** Marks hidden series on the datasets and rewrites the entries if names or styles changed. */
  update(datasets: XYDataset[]): void {
    for (const ds of datasets) ds.hidden = this.hidden.has(String(ds.label));
    const key = datasets
      .map(
        (ds) =>
          `${ds.label}\u0000${String(ds.borderColor)}\u0000${(ds.borderDash as number[] | undefined)?.join(',') ?? ''}\u0000${ds.hidden ? 1 : 0}`,
      )
      .join('\u0001');
    if (key === this.key) return;
    this.key = key;
    const names = datasets.map((ds) => String(ds.label));
    this.element.replaceChildren(...datasets.map((ds) => this.entry(ds, names)));
  }

  /** Forgets what is written (a theme change): the next update writes the entries again. */
  invalidate(): void {
    this.key = '';
  }

  private entry(ds: XYDataset, names: readonly string[]): HTMLElement {
    const name = String(ds.label);
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.rovingKey = name;
    b.tabIndex = rovingTabIndex(this.group, name, names);
    b.className = 'legend-item';
    b.dataset.series = name;
    b.setAttribute('aria-pressed', String(!ds.hidden));
    b.title = ds.hidden ? `Show ${name}` : `Hide ${name}`;
    const swatch = document.createElement('span');
    swatch.className = 'legend-swatch';
    // CSSOM, not a style attribute: the webview's CSP allows no inline style attributes.
    swatch.style.borderTopColor = String(ds.borderColor);
    swatch.style.borderTopStyle = (ds.borderDash as number[] | undefined)?.length ? 'dashed' : 'solid';
    const text = document.createElement('span');
    text.textContent = name;
    b.append(swatch, text);
    b.addEventListener('click', () => {
      if (this.hidden.has(name)) this.hidden.delete(name);
      else this.hidden.add(name);
      this.onToggle();
    });
    return b;
  }
}
