// How the panel reaches the screen: whole-panel renders coalesced per animation frame, and the regions a tick
// changes (their own elements, rendered with the panel and alone after a tick). Apart from app.ts, which decides
// what changed; this decides when and how much is drawn.
import { render, type TemplateResult } from 'lit';

export class PanelRendering {
  private frame = 0;
  private regionFrame = 0;
  private renders = 0;
  private readonly regions = new Map<string, { el: HTMLElement; template: () => TemplateResult }>();
  private readonly pendingRegions = new Set<string>();

  constructor(
    private readonly root: HTMLElement,
    /** The whole panel's template. */
    private readonly template: () => TemplateResult,
    /** Called after every whole-panel render. */
    private readonly rendered: () => void,
  ) {}

  /** Renders the whole panel in the next frame (once, however often asked). */
  requestRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderNow();
    });
  }

  renderNow(): void {
    this.pendingRegions.clear();
    render(this.template(), this.root);
    // How many times the whole template was rendered (a tick must not do it; the browser tier checks).
    this.root.dataset.renders = String(++this.renders);
    this.rendered();
  }

  /** A part of the panel that ticks change: its own element, rendered with the panel and alone after a tick. */
  region(name: string, template: () => TemplateResult): HTMLElement {
    let r = this.regions.get(name);
    if (!r) {
      const el = document.createElement('div');
      el.dataset.region = name;
      // The region's box takes no part in the layout: its sections sit in the grid as they did.
      el.style.display = 'contents';
      r = { el, template };
      this.regions.set(name, r);
    }
    r.template = template;
    render(template(), r.el);
    return r.el;
  }

  /** Renders the named regions in the next frame (nothing more: a full render pending does them anyway). */
  requestRegions(names: readonly string[]): void {
    for (const n of names) this.pendingRegions.add(n);
    if (this.frame || this.regionFrame) return;
    this.regionFrame = requestAnimationFrame(() => {
      this.regionFrame = 0;
      if (this.frame) return;
      for (const n of this.pendingRegions) {
        const r = this.regions.get(n);
        if (r) render(r.template(), r.el);
      }
      this.pendingRegions.clear();
    });
  }
}
