// What the Activity Bar tree lists, computed on its first getChildren rather than at activation: the unrestored
// restore journals of this machine (a crashed run's server settings, with their Restore item), the SQL extension's
// saved connections (parsed with the message schemas) and, once the panel is loaded, its state. labView.ts loads this
// module lazily (a chunk of its own, dist/tree.js, in the bundle), so activation loads neither the journal nor zod.
import { buildLabTree, localJournals, type LabTreeNode } from '../host/labTree';
import type { LogPort, SqlExtensionPort } from '../host/ports';
import { sqlExtensionConnections } from '../host/sqlExtension';
import type { PanelState } from '../shared/protocol';

/** The tree's roots for the panel's state (null: no panel loaded, so nothing is connected). */
export function treeRoots(state: PanelState | null, sqlExtension: SqlExtensionPort, log: LogPort): LabTreeNode[] {
  let journals: ReturnType<typeof localJournals> = [];
  try {
    journals = localJournals();
  } catch (err) {
    log.warn(`could not read the restore journals: ${(err as Error).message}`);
  }
  // The SQL extension's saved connections: the panel's list when it is open, else read here (no panel needed).
  let sqlConnections = state ? (state.sqlExtension?.connections ?? null) : null;
  if (!state) {
    const raw = sqlExtension.savedProfiles();
    sqlConnections = raw ? sqlExtensionConnections(raw, log).map((c) => c.view) : null;
  }
  return buildLabTree({ state, journals, sqlConnections });
}
