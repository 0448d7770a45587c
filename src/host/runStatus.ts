// The status bar item of a running experiment, as plain data (src/extension/labView.ts shows it). Apart from
// labTree.ts so the status bar needs nothing but the panel state's type at activation.
import type { PanelState } from '../shared/protocol';

export interface RunStatusView {
  /** Status bar text with a codicon. */
  text: string;
  tooltip: string;
  ariaLabel: string;
}

/** The status bar item while an experiment runs, or null when none does. */
export function runStatus(state: PanelState | null): RunStatusView | null {
  const a = state?.active;
  if (!a || (a.status !== 'starting' && a.status !== 'running')) return null;
  const done = a.runs.filter((r) => r.status !== 'running').length;
  const current = a.runs.find((r) => r.status === 'running');
  const seconds = current?.ticks.length ? Math.round(current.ticks[current.ticks.length - 1].t / 1000) : 0;
  const what = a.preset ? `preset ${a.preset.id}` : a.scenarioId;
  const progress = a.status === 'starting' ? a.message : `${a.message}${current ? `, ${seconds} s` : ''}`;
  return {
    text: `$(pulse) ${what}: ${progress}`,
    tooltip: `Spinlock Lab is running ${a.title}${a.simulated ? ' (simulator)' : ''}: ${progress}; ${done} run${done === 1 ? '' : 's'} finished. Click to show the panel.`,
    ariaLabel: `Spinlock Lab experiment running: ${what}, ${progress}. Press to show the panel.`,
  };
}
