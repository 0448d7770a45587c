// Loads the heavy half of the extension (lab.ts: the panel, the engine, the driver, the notebook code) the first
// time something needs it: a command run, the panel opened or restored, a tree item that opens the panel. Until
// then nothing of it is loaded, so activation stays light. In the webpack bundle the import below is a chunk of its
// own, dist/lab.js; under tsc (the tests) it is a plain require.
import * as vscode from 'vscode';
import type * as Lab from './lab';

export type LabModule = typeof Lab;

let loading: Promise<LabModule> | undefined;
let loaded: LabModule | undefined;

/** The panel's state changed ('state') or a run moved ('progress'); forwarded from LabPanel.changed once loaded. */
export const labChanged = new vscode.EventEmitter<'state' | 'progress'>();

export function loadLab(): Promise<LabModule> {
  loading ??= import(/* webpackChunkName: "lab", webpackMode: "lazy" */ './lab').then(
    (lab) => {
      loaded = lab;
      lab.LabPanel.changed.event((kind) => labChanged.fire(kind));
      return lab;
    },
    (err: unknown) => {
      loading = undefined; // let the next use try again (and report again)
      throw err;
    },
  );
  return loading;
}

/** The open panel, without loading anything: none when the heavy half is not loaded yet. */
export function currentPanel(): Lab.LabPanel | undefined {
  return loaded?.LabPanel.current;
}
