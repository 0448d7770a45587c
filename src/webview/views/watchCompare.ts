// "Compare two windows" of the Watch mode: window A and window B by marks (from a mark to a mark, or to now) or by
// times, typed (the keyboard's path) or dragged on the timeline; Compare asks the host, which reads every tick from
// samples.jsonl, and the answer shows as experiments' comparisons do: a summary in words and each figure's change.
import { html, nothing, type TemplateResult } from 'lit';
import { ref } from 'lit/directives/ref.js';
import type { WatchView } from '../../shared/protocol';
import type { WatchMark } from '../../shared/watch';
import { resolveWindow } from '../../shared/watchWindows';
import type { WindowDraft, WindowKey } from '../model/watchCompare';
import type { ViewContext } from './context';
import { inputValue } from './common';
import { figuresTable } from './compare';

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function endPicker(
  app: ViewContext,
  which: WindowKey,
  end: 'from' | 'to',
  marks: readonly WatchMark[],
  err: string | undefined,
): TemplateResult {
  const cmp = app.watch.compare;
  const d = cmp[which];
  const W = which.toUpperCase();
  const id = `watch-cmp-${which}-${end}`;
  const kind = end === 'from' ? d.fromKind : d.toKind;
  const mark = end === 'from' ? d.fromMark : d.toMark;
  const time = end === 'from' ? d.fromTime : d.toTime;
  const edit = (patch: Partial<WindowDraft>) => {
    cmp.edit(which, patch);
    app.requestRender();
  };
  const onKind = (e: Event) => {
    const v = (e.target as HTMLSelectElement).value;
    const [k, markId = ''] = v.split(':');
    if (end === 'from') edit({ fromKind: k as WindowDraft['fromKind'], ...(k === 'mark' ? { fromMark: markId } : {}) });
    else edit({ toKind: k as WindowDraft['toKind'], ...(k === 'mark' ? { toMark: markId } : {}) });
  };
  const value = kind === 'mark' ? `mark:${mark}` : kind;
  const open = end === 'from' ? ['start', 'From the start'] : ['now', 'To now (the last tick)'];
  return html`<div class="field ${err ? 'invalid' : ''}">
    <label for=${id}>${end === 'from' ? 'From' : 'To'}</label>
    <select id=${id} aria-label=${`Window ${W} ${end === 'from' ? 'starts' : 'ends'}`} aria-describedby=${err ? `${id}-error` : nothing} @change=${onKind}>
      <option value=${open[0]} ?selected=${value === open[0]}>${open[1]}</option>
      ${marks.map((m) => html`<option value=${`mark:${m.id}`} ?selected=${value === `mark:${m.id}`}>Mark "${m.name}" (${secs(m.t)})</option>`)}
      <option value="time" ?selected=${kind === 'time'}>A time…</option>
    </select>
    ${
      kind === 'time'
        ? html`<input type="text" id=${`${id}-time`} class="time-input" inputmode="decimal" .value=${time}
        aria-label=${`Window ${W} ${end === 'from' ? 'start' : 'end'}, seconds from the watch's start`} placeholder="seconds, e.g. 12.5"
        @input=${(e: Event) => {
          cmp.edit(which, end === 'from' ? { fromTime: inputValue(e) } : { toTime: inputValue(e) });
          app.requestRender();
        }}>`
        : nothing
    }
    ${err ? html`<p class="field-error" id=${`${id}-error`} role="alert">${err}</p>` : nothing}
  </div>`;
}

/**
 * Positions an element through the CSSOM: the panel's CSP forbids style attributes (and lit's styleMap writes one on
 * its first render).
 */
function place(left: string, width?: string) {
  return ref((el) => {
    if (!(el instanceof HTMLElement)) return;
    el.style.left = left;
    if (width !== undefined) el.style.width = width;
  });
}

/** The watch's span with marks and the two windows shaded; a drag sets the chosen window's times. */
function timeline(app: ViewContext, marks: readonly WatchMark[], endMs: number): TemplateResult {
  const cmp = app.watch.compare;
  const pct = (t: number) => `${Math.max(0, Math.min(100, (100 * t) / endMs)).toFixed(2)}%`;
  const band = (which: WindowKey) => {
    const r = cmp.window(which, marks).window;
    const range = r ? resolveWindow('', r, marks) : null;
    if (!range || 'error' in range) return nothing;
    const lo = Math.max(0, range.range.lo),
      hi = Math.min(endMs, range.range.hi);
    return html`<div class="tl-band tl-${which}" ${place(pct(lo), pct(hi - lo))}>${which.toUpperCase()}</div>`;
  };
  const at = (e: PointerEvent) => {
    const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
    return Math.round(Math.max(0, Math.min(1, (e.clientX - box.left) / box.width)) * endMs);
  };
  const drag = cmp.drag;
  return html`<div class="watch-timeline" id="watch-timeline" aria-hidden="true" title="Drag to set the window chosen on the left"
      @pointerdown=${(e: PointerEvent) => {
        (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
        cmp.drag = { x0: at(e), x1: at(e) };
        app.requestRender();
      }}
      @pointermove=${(e: PointerEvent) => {
        if (cmp.drag) {
          cmp.drag.x1 = at(e);
          app.requestRender();
        }
      }}
      @pointerup=${(e: PointerEvent) => {
        const d = cmp.drag;
        cmp.drag = null;
        if (d && Math.abs(at(e) - d.x0) >= 50) cmp.setRange(cmp.brushTarget, d.x0, at(e));
        app.requestRender();
      }}>
    ${band('a')}${band('b')}
    ${drag ? html`<div class="tl-band tl-drag" ${place(pct(Math.min(drag.x0, drag.x1)), pct(Math.abs(drag.x1 - drag.x0)))}></div>` : nothing}
    ${marks.map((m) => html`<div class="tl-mark" ${place(pct(m.t))} title=${`${m.name} (${secs(m.t)})`}></div>`)}
    <span class="tl-end muted">${secs(endMs)}</span>
  </div>`;
}

export function watchCompareView(app: ViewContext, w: WatchView): TemplateResult {
  const cmp = app.watch.compare;
  cmp.sync(w.id, w.marks);
  const marks = w.marks;
  const endMs = Math.max(1000, app.watch.last?.t ?? 0, w.ticks * w.intervalMs, ...marks.map((m) => m.t));
  const { request, errors } = cmp.request(marks);
  const answer = cmp.answer;
  const windowFields = (which: WindowKey) => html`<fieldset class="watch-window" id=${`watch-cmp-${which}`}>
    <legend>Window ${which.toUpperCase()}</legend>
    ${endPicker(app, which, 'from', marks, errors[which].from)}
    ${endPicker(app, which, 'to', marks, errors[which].to)}
    ${errors[which].range ? html`<p class="field-error" id=${`watch-cmp-${which}-range`} role="alert">${errors[which].range}</p>` : nothing}
  </fieldset>`;
  return html`<div id="watch-compare">
    <h3>Compare two windows</h3>
    <p class="muted small">Each figure of window A against window B, from every tick on disk, as experiments compare runs. Pick the
      windows by marks or times (seconds from the watch's start), or drag on the timeline.</p>
    <div class="watch-windows">${windowFields('a')}${windowFields('b')}</div>
    <div class="toolbar">
      <span id="watch-brush-label">A drag on the timeline sets</span>
      <label class="inline"><input type="radio" name="watch-brush" id="watch-brush-a" ?checked=${cmp.brushTarget === 'a'}
        @change=${() => {
          cmp.brushTarget = 'a';
          app.requestRender();
        }}> window A</label>
      <label class="inline"><input type="radio" name="watch-brush" id="watch-brush-b" ?checked=${cmp.brushTarget === 'b'}
        @change=${() => {
          cmp.brushTarget = 'b';
          app.requestRender();
        }}> window B</label>
    </div>
    ${timeline(app, marks, endMs)}
    <div class="toolbar">
      <vscode-button id="btn-watch-compare" ?disabled=${!request || w.status === 'starting'}
        @click=${() => {
          if (request) app.questions.compareWatch(cmp, request);
        }}>Compare windows</vscode-button>
      <span class="status-text" role="status" id="watch-compare-status">${cmp.pending ? 'Reading the ticks…' : ''}</span>
    </div>
    ${answer?.error ? html`<p class="field-error" id="watch-compare-error" role="alert">${answer.error}</p>` : nothing}
    ${
      answer?.result
        ? html`
      <p class="muted" id="watch-compare-spans">A: ${answer.result.a.described} (${answer.result.a.ticks} ticks, ${answer.result.a.seconds.toFixed(1)} s);
        B: ${answer.result.b.described} (${answer.result.b.ticks} ticks, ${answer.result.b.seconds.toFixed(1)} s)</p>
      <ul class="summary" id="watch-compare-summary">${answer.result.summary.map((s) => html`<li>${s}</li>`)}</ul>
      <div class="table-wrap">${figuresTable(answer.result.figures, { id: 'watch-compare-table', label: 'Figures of window A and window B', a: 'A', b: 'B' })}</div>`
        : nothing
    }
  </div>`;
}
