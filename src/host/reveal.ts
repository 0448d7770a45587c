// "Show this" from the host (shared/reveal.ts): the Activity Bar's preset, Watch, experiment and view items open the
// panel on what they name. The target is checked here first, so a preset or an experiment that is not there is said by
// name where the user clicked, not blamed on the panel. Each reveal is posted at once and once more after the
// webview's next `ready`: a panel just created may not be listening yet, and the webview obeys a seq only once.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { message, ToWebview, type PanelState } from '../shared/protocol';
import type { RevealMessage, RevealTarget } from '../shared/reveal';
import { experimentDir, readExperiment } from './history';
import type { HostPorts } from './ports';
import { UiFailure } from './uiErrors';
import { isPanelView, PANEL_VIEWS } from '../shared/panelViews';

/** Throws, naming the target, when the panel cannot show it. */
export function checkRevealTarget(t: RevealTarget, state: PanelState, resultsFolder: string): void {
  if (t.target === 'preset' && !state.presets.some((p) => p.id === t.id)) {
    throw new UiFailure({
      message: `Spinlock Lab has no preset "${t.id}".`,
      fix: `The presets are: ${state.presets.map((p) => p.id).join(', ')}.`,
    });
  }
  if (t.target === 'view' && !isPanelView(t.view)) {
    throw new UiFailure({
      message: `The panel has no view "${String(t.view)}".`,
      fix: `The views are: ${PANEL_VIEWS.join(', ')}.`,
    });
  }
  if (t.target !== 'experiment') return;
  const dir = experimentDir(resultsFolder, t.id);
  if (!dir) throw new UiFailure({ message: `"${t.id}" is not an experiment id (letters, digits, '-', '_' and '.').` });
  if (!fs.existsSync(path.join(dir, 'experiment.json'))) {
    throw new UiFailure({
      message: `The experiment "${t.id}" is not in the results folder (${resultsFolder}): it was deleted or moved.`,
      fix: 'Refresh the Spinlock Lab view to list the experiments that are there.',
    });
  }
  try {
    readExperiment(resultsFolder, t.id);
  } catch (e) {
    throw new UiFailure({ message: `The experiment "${t.id}" cannot be opened: ${(e as Error).message}` });
  }
}

export class Reveals {
  private pending: RevealMessage | null = null;
  private n = 0;
  /** Unique to this controller, so a restored webview never mistakes a new reveal for one it obeyed. */
  private readonly prefix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

  constructor(
    private readonly ports: HostPorts,
    private readonly closed: () => boolean,
  ) {}

  show(reveal: RevealTarget): void {
    if (this.closed()) return;
    const m: RevealMessage = { seq: `${this.prefix}-${++this.n}`, reveal };
    this.pending = m;
    this.ports.post(message(ToWebview.reveal, m));
  }

  /** The webview (re)loaded: the last reveal again, once. */
  ready(): void {
    const m = this.pending;
    this.pending = null;
    if (m && !this.closed()) this.ports.post(message(ToWebview.reveal, m));
  }
}
