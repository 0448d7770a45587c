// The live charts' toolbar: the run picker, the run's status, Pause and the zoom buttons (zoom only while paused or
// once the run has finished: a live chart keeps scrolling).
import { html, nothing, type TemplateResult } from 'lit';
import { liveRunName, type RunData } from '../model/liveRuns';
import { rovingFocus, rovingKeydown, rovingTabIndex } from './roving';

export interface ToolbarState {
  run: RunData | null;
  runs: RunData[];
  followIndex: number | null;
  paused: boolean;
  zoomable: boolean;
  /** Element id prefix (the Watch mode's instance). */
  prefix: string;
  runPicker: boolean;
  onPickRun(index: number | null): void;
  onPause(): void;
  /** A zoom factor, or null to reset. */
  onZoom(factor: number | null): void;
}

export function toolbarTemplate(s: ToolbarState): TemplateResult {
  const { run, paused, zoomable, prefix: p } = s;
  // Pause and the zoom buttons are one Tab stop (the zoom buttons only when they work).
  const tab = (key: string) => rovingTabIndex(p + 'chart-tools', key, zoomable ? ['pause', 'in', 'out', 'reset'] : ['pause']);
  const onPick = (ev: Event) => {
    const v = (ev.target as HTMLSelectElement).value;
    s.onPickRun(v === 'follow' ? null : Number(v));
  };
  const status = run ? `Run ${run.index + 1}: ${liveRunName(run, s.runs)}, ${run.status}` : 'No run yet';
  const picker = !s.runPicker
    ? nothing
    : html`
    <label class="inline">Run
      <select id="chart-run" aria-label="Run shown in the charts" @change=${onPick}>
        <option value="follow" ?selected=${s.followIndex === null}>Follow the current run</option>
        ${s.runs.map(
          (r) => html`<option value=${String(r.index)} ?selected=${s.followIndex === r.index}>
          Run ${r.index + 1} · ${liveRunName(r, s.runs)} · ${r.status}</option>`,
        )}
      </select>
    </label>`;
  return html`${picker}
    <span class="muted" aria-live="polite">${!s.runPicker ? '' : status}${run !== null && paused ? ' (paused: still buffering)' : ''}</span>
    <span class="spacer"></span>
    <span class="chip-group" role="toolbar" aria-label="Chart controls (arrow keys move between them)"
      @keydown=${rovingKeydown(p + 'chart-tools')} @focusin=${rovingFocus(p + 'chart-tools')}>
    <button class="chip" id=${p + 'btn-pause'} aria-pressed=${String(paused)} @click=${() => s.onPause()}
      data-roving-key="pause" tabindex=${tab('pause')} title="Stop redrawing; samples keep arriving">${paused ? 'Resume' : 'Pause'}</button>
    <button class="chip" id=${p + 'btn-zoom-in'} ?disabled=${!zoomable} @click=${() => s.onZoom(1.5)} data-roving-key="in" tabindex=${tab('in')}
      title=${zoomable ? 'Zoom in (or use the mouse wheel; drag to pan)' : 'Pause or wait for the run to finish to zoom'}>Zoom in</button>
    <button class="chip" id=${p + 'btn-zoom-out'} ?disabled=${!zoomable} @click=${() => s.onZoom(1 / 1.5)}
      data-roving-key="out" tabindex=${tab('out')}>Zoom out</button>
    <button class="chip" id=${p + 'btn-zoom-reset'} ?disabled=${!zoomable} @click=${() => s.onZoom(null)}
      data-roving-key="reset" tabindex=${tab('reset')}>Reset zoom</button>
    </span>
  `;
}
