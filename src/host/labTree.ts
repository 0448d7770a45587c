// Spinlock Lab's home in the Activity Bar, as plain data: the tree (an unrestored journal at the top, the saved
// connections, the presets, this server's experiments) and the status bar item of a running experiment, both pure
// functions of the panel's state. src/extension/labView.ts only turns them into vscode TreeItems and a StatusBarItem.
import { defaultStateDir, listJournals, processGone } from '../engine/journal';
import type { CheckView } from '../shared/checkView';
import { getPost } from '../shared/posts';
import { watchStatusWords } from '../shared/watch';
import { PANEL_VIEWS, PANEL_VIEW_INFO } from '../shared/panelViews';
import type { ExperimentSummary, JournalSummary, PanelState, PresetSummary, SqlExtensionConnectionView } from '../shared/protocol';
import { summariseJournal } from './journalView';
import { TREE_COMMANDS } from './treeCommands';

// Moved to their own light modules (activation needs them without the tree's data); re-exported for the tree's users.
export { TREE_COMMANDS, treeItemId } from './treeCommands';
export { runStatus } from './runStatus';

export interface LabTreeNode {
  /** Stable across refreshes, so the tree keeps expansion and focus. */
  id: string;
  label: string;
  description?: string;
  tooltip: string;
  /** What a screen reader says: the label with what the description and icon show. */
  ariaLabel: string;
  /** A codicon name. */
  icon: string;
  /** For menus: 'journal', 'journal.inUse', 'connection', 'checks', 'check', 'preset', 'experiment', 'group'. */
  contextValue: string;
  command?: { command: string; title: string; args: unknown[] };
  children?: LabTreeNode[];
  /** With children: shown collapsed (default expanded). */
  collapsed?: boolean;
}

export interface LabTreeInput {
  /** The panel's state, or null when the panel is closed (then nothing is connected). */
  state: PanelState | null;
  /** Unrestored journals on this machine, for when no server is connected. */
  journals: JournalSummary[];
  /** Microsoft's SQL extension's saved connections; null or absent when it is not installed. */
  sqlConnections?: SqlExtensionConnectionView[] | null;
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

function journalNode(j: JournalSummary, connected: boolean): LabTreeNode {
  const changes = j.changes.join(' and ');
  return {
    id: `journal:${j.serverAddress}`,
    label: `Unrestored settings on ${j.serverAddress}`,
    description: 'Restore',
    tooltip:
      `An experiment (process ${j.pid}, ${when(j.createdAt)}) changed ${changes} and did not put it back. Restore puts back: ${j.original}.` +
      (connected ? '' : ' Connect to the server first.'),
    ariaLabel: `Warning: unrestored ${changes} on ${j.serverAddress}. Restore puts back ${j.original}.`,
    icon: 'warning',
    contextValue: 'journal',
    command: { command: TREE_COMMANDS.restore, title: 'Restore', args: [] },
  };
}

/** The running experiment's own journal: in use by this run, which puts the settings back itself (no Restore here). */
function runJournalNode(j: JournalSummary): LabTreeNode {
  const changes = j.changes.join(' and ');
  return {
    id: `journal:${j.serverAddress}`,
    label: `Settings in use by this run on ${j.serverAddress}`,
    description: 'in use by this run',
    tooltip: `The running experiment changed ${changes} and journaled it; it puts back ${j.original} when it ends or is stopped.`,
    ariaLabel: `${changes} on ${j.serverAddress} in use by this run; it puts back ${j.original} when it ends.`,
    icon: 'info',
    contextValue: 'journal.inUse',
  };
}

/** `spinlab check` on the connected server: "Checks: N of M features can run", each feature a child (tooltip: the GRANT). */
export function checksNode(check: CheckView): LabTreeNode {
  if (check.error) {
    return {
      id: 'checks',
      label: 'Checks: could not run',
      tooltip: check.error,
      ariaLabel: `Checks could not run: ${check.error}`,
      icon: 'warning',
      contextValue: 'checks',
    };
  }
  const ok = check.features.filter((f) => f.canRun).length;
  const n = check.features.length;
  const label = `Checks: ${ok} of ${n} features can run`;
  const children = check.features.map((f): LabTreeNode => {
    const fix = f.grants.length ? f.grants.join('\n') : f.reasons.join(' ') || 'Nothing can be granted to fix it here.';
    return {
      id: `check:${f.id}`,
      label: f.name,
      description: f.canRun ? 'can run' : 'cannot run',
      tooltip: f.canRun ? `${f.name}: can run here with this login.` : fix,
      ariaLabel: f.canRun ? `${f.name}: can run` : `${f.name}: cannot run. ${f.grants.length ? `Fix: ${f.grants.join(' ')}` : fix}`,
      icon: f.canRun ? 'pass' : 'error',
      contextValue: 'check',
    };
  });
  return {
    id: 'checks',
    label,
    description: check.supported ? undefined : 'unsupported server',
    tooltip: `${label} with this login (spinlab check).${check.notes.length ? `\n${check.notes.join('\n')}` : ''}`,
    ariaLabel: `${label}${ok < n ? `; ${n - ok} cannot, expand for the GRANTs` : ''}`,
    icon: ok === n ? 'pass' : 'warning',
    contextValue: 'checks',
    children,
    collapsed: ok === n,
  };
}

function connectionNodes(state: PanelState): LabTreeNode[] {
  return state.profiles.map((p) => {
    const current = state.connection.profileId === p.id ? state.connection.status : null;
    const where = `${p.server}${p.instanceName ? `\\${p.instanceName}` : ''}${p.port ? `,${p.port}` : ''}`;
    const status = current === 'connected' ? 'connected' : current === 'connecting' ? 'connecting' : '';
    return {
      id: `connection:${p.id}`,
      label: p.label || p.server,
      description: status || where,
      tooltip:
        `${where}, ${p.authentication === 'sql' ? `SQL login ${p.user}` : p.authentication === 'entra' ? 'Microsoft Entra ID' : `Windows ${p.domain ? `${p.domain}\\` : ''}${p.user}`}; lab database ${p.labDatabase}.` +
        (status === 'connected' ? ' Connected.' : " Opens it in the panel's connection form."),
      ariaLabel: `Connection ${p.label || p.server}, ${where}${status ? `, ${status}` : ''}`,
      icon: status === 'connected' ? 'vm-active' : 'vm-outline',
      contextValue: status === 'connected' ? 'connection.connected' : 'connection',
      command: { command: TREE_COMMANDS.connectProfile, title: 'Open in the connection form', args: [p.id] },
      children: status === 'connected' && state.check ? [checksNode(state.check)] : undefined,
    };
  });
}

const AUTH_WORDS: Record<SqlExtensionConnectionView['authentication'], string> = {
  sql: 'SQL login',
  entra: 'Microsoft Entra ID',
  ntlm: 'Windows',
};

/** A saved connection of Microsoft's SQL extension: a click connects with it (its credentials, asked of it then). */
function sqlConnectionNode(c: SqlExtensionConnectionView, state: PanelState | null): LabTreeNode {
  const current = state?.connection.profileId === c.id ? state.connection.status : null;
  const status = current === 'connected' ? 'connected' : current === 'connecting' ? 'connecting' : '';
  const who = `${AUTH_WORDS[c.authentication]}${c.user ? ` ${c.user}` : ''}`;
  return {
    id: `mssql:${c.id}`,
    label: c.label,
    description: status || c.server,
    tooltip:
      `${c.server}${c.database ? ` (database ${c.database})` : ''}, ${who}; saved in Microsoft's SQL extension.` +
      (status === 'connected' ? ' Connected.' : ' Connects with the credentials the SQL extension keeps for it.'),
    ariaLabel: `SQL extension connection ${c.label}, ${c.server}, ${who}${status ? `, ${status}` : ''}`,
    icon: status === 'connected' ? 'vm-active' : 'database',
    contextValue: status === 'connected' ? 'mssqlConnection.connected' : 'mssqlConnection',
    command: { command: TREE_COMMANDS.connectSqlExtension, title: 'Connect in Spinlock Lab', args: [c.id] },
  };
}

function presetNode(p: PresetSummary): LabTreeNode {
  const post = getPost(p.post);
  return {
    id: `preset:${p.id}`,
    label: p.name,
    description: p.id,
    tooltip: `${p.question}\nReproduces ${post.author}, “${post.title}”.`,
    ariaLabel: `Preset ${p.name}: ${p.question} From ${post.author}, ${post.title}.`,
    icon: 'beaker',
    contextValue: 'preset',
    command: { command: TREE_COMMANDS.openPreset, title: 'Open the preset in the panel', args: [p.id] },
  };
}

function experimentNode(e: ExperimentSummary): LabTreeNode {
  const threads = e.threads.join(', ');
  return {
    id: `experiment:${e.id}`,
    label: e.title,
    description: `${when(e.createdAt)} · ${e.status}`,
    tooltip: `${e.title}\n${e.serverName}, ${e.scenarioId}${e.presetId ? ` (preset ${e.presetId})` : ''}, threads ${threads}; ${e.status}${e.simulated ? '; simulated' : ''}. Opens in the panel.`,
    ariaLabel: `Experiment ${e.title}, ${e.status}, ${when(e.createdAt)}, threads ${threads}${e.simulated ? ', simulated' : ''}`,
    icon: e.status === 'completed' ? 'graph-line' : e.status === 'cancelled' ? 'circle-slash' : 'error',
    contextValue: 'experiment',
    command: { command: TREE_COMMANDS.openExperiment, title: 'Open in the panel', args: [e.id] },
  };
}

function group(id: string, label: string, icon: string, children: LabTreeNode[], empty: string): LabTreeNode {
  return {
    id: `group:${id}`,
    label,
    description: children.length ? String(children.length) : empty,
    tooltip: children.length ? `${label}: ${children.length}` : `${label}: ${empty}`,
    ariaLabel: `${label}, ${children.length ? `${children.length} item${children.length === 1 ? '' : 's'}` : empty}`,
    icon,
    contextValue: 'group',
    children,
  };
}

/** The panel's views, each opening the panel on it (shared/panelViews.ts). */
function viewNodes(): LabTreeNode[] {
  return PANEL_VIEWS.map((v) => ({
    id: `view:${v}`,
    label: PANEL_VIEW_INFO[v].name,
    description: '',
    tooltip: `${PANEL_VIEW_INFO[v].question} Opens the panel's ${PANEL_VIEW_INFO[v].name} view.`,
    ariaLabel: `Panel view ${PANEL_VIEW_INFO[v].name}`,
    icon: PANEL_VIEW_INFO[v].icon,
    contextValue: 'panelView',
    command: { command: TREE_COMMANDS.openView, title: 'Open this view of the panel', args: [v] },
  }));
}

/** Watch this server (the panel's Watch section): its state when one runs or ran. */
function watchNode(state: PanelState, server: string): LabTreeNode {
  const w = state.watch;
  const live = !!w && (w.status === 'starting' || w.status === 'running');
  const description = w ? `${watchStatusWords(w.status)}, ${w.ticks} tick${w.ticks === 1 ? '' : 's'}` : 'read-only';
  return {
    id: 'watch',
    label: `Watch ${server}`,
    description,
    tooltip: `Live spinlock, wait and latch deltas of ${server} under its own workload, read-only (needs only VIEW SERVER STATE). Opens the panel's Watch section.`,
    ariaLabel: `Watch ${server}, ${description}`,
    icon: live ? 'eye-watch' : 'eye',
    contextValue: live ? 'watch.running' : 'watch',
    command: { command: TREE_COMMANDS.openWatch, title: 'Open the Watch section in the panel', args: [] },
  };
}

/**
 * The tree's roots. Empty when nothing is connected and no journal waits (VS Code then shows the welcome view with
 * its Connect button); otherwise the journal first, then connections, presets, this server's experiments and its Watch.
 */
export function buildLabTree(input: LabTreeInput): LabTreeNode[] {
  const { state } = input;
  const connected = state?.connection.status === 'connected';
  // Connected: the controller's own view of this server's journal (the journal of its running experiment is not one).
  const journals = connected ? (state?.journal ? [state.journal] : []) : input.journals;
  const sql = input.sqlConnections ?? [];
  if (!connected && journals.length === 0 && sql.length === 0) return [];
  const roots: LabTreeNode[] = journals.map((j) => journalNode(j, connected));
  if (connected && state?.runJournal) roots.push(runJournalNode(state.runJournal));
  roots.push(group('connections', 'Connections', 'plug', state ? connectionNodes(state) : [], 'none saved'));
  if (connected) roots.push({ ...group('views', 'Panel', 'layout', viewNodes(), 'none'), description: '' });
  if (sql.length) {
    const nodes = sql.map((c) => sqlConnectionNode(c, state));
    roots.push(group('mssql', "In Microsoft's SQL extension", 'database', nodes, 'none'));
  }
  roots.push(group('presets', 'Presets', 'beaker', (state?.presets ?? []).map(presetNode), 'none'));
  if (connected && state) {
    const name = state.server?.identity.serverName ?? 'this server';
    roots.push(group('experiments', `Experiments on ${name}`, 'history', state.history.map(experimentNode), 'none yet'));
    roots.push(watchNode(state, name));
  }
  return roots;
}

/**
 * Unrestored journals in the restore journal folder (the CLI's too), for the tree when no server is connected. A
 * journal whose process still runs belongs to an experiment in progress (a CLI run, say), not to one left behind.
 */
export function localJournals(stateDir = defaultStateDir()): JournalSummary[] {
  return listJournals(stateDir)
    .filter((j) => processGone(j.pid))
    .map(summariseJournal);
}
