// The flame view of a capture's folded call stacks: plain SVG (no inline styles, so the panel's CSP holds; colours
// come from the theme's CSS variables in media/panel.css). Outermost frame at the bottom, the frame that backed off
// at the top of each tower; width is the share of the backoff events. One tab stop: arrow keys move between bars
// (Up: towards the innermost frame, Down: the caller, Left/Right: the neighbour, Home: all stacks); focus or hover
// names the frame, its count and share in the line under the graph.
import { html, svg, nothing, type TemplateResult } from 'lit';
import { flameLayout, flameMove, pct, type FlameBar, type FlameLayout, type StacksModel } from '../model/stacks';
import { thousands } from '../../shared/numberText';

const WIDTH = 1000;
const ROW = 18;
/** Rough width of one character of the 11-unit label font, for cutting labels to their bar. */
const CHAR = 6.4;

// The last layout, kept while the capture is the same (a keypress re-renders; the tree does not change).
let cached: { key: unknown; layout: FlameLayout } | null = null;

export function layoutOf(m: StacksModel): FlameLayout | null {
  const c = m.capture;
  if (!c) return null;
  if (cached?.key !== c) cached = { key: c, layout: flameLayout(c.tree) };
  return cached.layout;
}

function label(b: FlameBar): string {
  const room = Math.floor((b.w * WIDTH - 6) / CHAR);
  if (room < 3) return '';
  return b.frame.length <= room ? b.frame : `${b.frame.slice(0, room - 1)}…`;
}

/** One of four theme colours per module (the text before '+'), so a module's frames look alike across towers. */
function colourClass(frame: string): string {
  let h = 0;
  for (const ch of frame.split('+')[0]) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `flame-c${h % 4}`;
}

export function barText(b: FlameBar): string {
  return `${b.frame}: ${thousands(b.count)} backoff event${b.count === 1 ? '' : 's'}, ${pct(b.share)} of all`;
}

export function flameView(m: StacksModel, requestRender: () => void): TemplateResult {
  const layout = layoutOf(m);
  if (!layout || !layout.bars.length)
    return html`<p class="muted" id="stacks-flame-empty">No stack to draw: the event did not fire in this capture.</p>`;
  const height = layout.rows * ROW;
  const focusBar = (id: number, svgEl: Element | null) => {
    m.focused = id;
    requestRender();
    requestAnimationFrame(() => (svgEl?.querySelector(`[data-bar="${id}"] rect`) as SVGElement | null)?.focus());
  };
  const onKey = (e: KeyboardEvent) => {
    const next = flameMove(layout, m.focused, e.key);
    if (e.key.startsWith('Arrow') || e.key === 'Home') e.preventDefault();
    if (next !== null) focusBar(next, e.currentTarget as Element | null);
  };
  const shown = layout.bars[m.hovered ?? m.focused] ?? layout.bars[0];
  return html`<div class="flame" id="stacks-flame">
    <p class="small muted" id="stacks-flame-help">Outermost frame (where the thread started) at the bottom; the frame that backed off at the top of each tower.
      Width is the share of the backoff events; the colour is the frame's module. Tab to the graph, then use the arrow keys (Up: callee, Down: caller, Left/Right: neighbour, Home: all).</p>
    <svg class="flame-svg" viewBox=${`0 0 ${WIDTH} ${height}`} role="tree" aria-label="Flame view of the backoff call stacks" aria-describedby="stacks-flame-help"
      @keydown=${onKey} @mouseleave=${() => {
        m.hovered = null;
        requestRender();
      }}>
      ${layout.bars.map((b) => {
        const y = (layout.rows - 1 - b.depth) * ROW;
        const x = b.x * WIDTH;
        const w = Math.max(b.w * WIDTH - 1, 0.5);
        return svg`<g data-bar=${String(b.id)} data-depth=${String(b.depth)} data-x=${b.x.toFixed(6)} data-w=${b.w.toFixed(6)} data-count=${String(b.count)}>
          <rect class=${`flame-bar ${colourClass(b.frame)}${b.id === m.focused ? ' flame-focused' : ''}`} x=${x.toFixed(2)} y=${String(y + 1)} width=${w.toFixed(2)} height=${String(ROW - 2)}
            tabindex=${b.id === m.focused ? '0' : '-1'} role="treeitem" aria-level=${String(b.depth + 1)} aria-label=${barText(b)}
            @focus=${() => {
              if (m.focused !== b.id) {
                m.focused = b.id;
                requestRender();
              }
            }}
            @mouseenter=${() => {
              m.hovered = b.id;
              requestRender();
            }}><title>${barText(b)}</title></rect>
          <text class="flame-text" x=${(x + 3).toFixed(2)} y=${String(y + ROW - 5)} aria-hidden="true">${label(b)}</text>
        </g>`;
      })}
    </svg>
    <p id="stacks-detail" aria-live="polite">${shown ? barText(shown) : nothing}</p>
    ${layout.hidden ? html`<p class="small muted">${layout.hidden} frame${layout.hidden === 1 ? '' : 's'} too narrow to draw (their events are in the frame below them).</p>` : nothing}
  </div>`;
}
