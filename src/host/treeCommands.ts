// The Activity Bar tree's command ids and how a command finds the item it was run on. Kept apart from labTree.ts (the
// tree's data, with the restore journal and the message schemas behind it) because activation registers these
// commands before any of that is loaded.

/** Commands the nodes run (contributed in package.json). */
export const TREE_COMMANDS = {
  open: 'spinlab.open',
  restore: 'spinlab.restore',
  connectProfile: 'spinlab.connectProfile',
  openPreset: 'spinlab.openPreset',
  openExperiment: 'spinlab.openExperiment',
  openWatch: 'spinlab.openWatch',
  openView: 'spinlab.openView',
  stop: 'spinlab.stop',
  connectSqlExtension: 'spinlab.connectSqlExtension',
} as const;

/**
 * The preset, experiment or connection id a tree command was run with. A click runs the item's command with its args
 * (the id); an inline action or a context menu passes the tree element itself (the node, its id `kind:<id>`).
 * Null when the argument names no item of that kind.
 */
export function treeItemId(arg: unknown, kind: 'preset' | 'experiment' | 'connection' | 'mssql'): string | null {
  if (typeof arg === 'string') return arg;
  const id = (arg as { id?: unknown } | null | undefined)?.id;
  const prefix = `${kind}:`;
  return typeof id === 'string' && id.startsWith(prefix) && id.length > prefix.length ? id.slice(prefix.length) : null;
}
