// The Activity Bar home as plain data (src/host/labTree.ts): what the tree shows connected and not, the journal at the
// top with Restore, each item's command and its screen-reader label; the status bar item only while a run goes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildLabTree, checksNode, localJournals, runStatus, TREE_COMMANDS, type LabTreeNode } from '../../../src/host/labTree';
import type { CheckView } from '../../../src/shared/checkView';
import { writeJournal } from '../../../src/engine/journal';
import type { JournalSummary } from '../../../src/shared/protocol';
import { connectedState, disconnectedState, experiment, summaryOf, tick } from '../../helpers/builders';
import { tmpDir } from './fakePorts';

const JOURNAL: JournalSummary = {
  serverAddress: 'lab1.contoso.local',
  changes: ['affinity'],
  createdAt: '2026-11-20T10:00:00.000Z',
  pid: 4242,
  original: 'CPU affinity AUTO',
};

const all = (nodes: LabTreeNode[]): LabTreeNode[] => nodes.flatMap((n) => [n, ...all(n.children ?? [])]);
const labels = (nodes: LabTreeNode[]) => nodes.map((n) => n.label);

it('nothing connected and no journal: an empty tree, so VS Code shows the welcome view', () => {
  assert.deepEqual(buildLabTree({ state: null, journals: [] }), []);
  assert.deepEqual(buildLabTree({ state: disconnectedState(), journals: [] }), []);
});

it("Microsoft's SQL extension's saved connections: listed even with nothing connected, a click connects, the connected one marked", () => {
  const sql = [
    { id: 'mssql-a', label: 'Sales (dev)', server: 'sql01,1500', database: 'Sales', authentication: 'sql' as const, user: 'spin' },
    { id: 'mssql-b', label: 'Azure lab', server: 'lab.database.windows.net', database: null, authentication: 'entra' as const, user: '' },
  ];
  for (const state of [null, disconnectedState()]) {
    const tree = buildLabTree({ state, journals: [], sqlConnections: sql });
    const group = tree.find((n) => n.id === 'group:mssql');
    assert.ok(group, 'not the welcome view: the SQL extension has connections to offer');
    assert.deepEqual(
      group.children?.map((n) => [n.id, n.label, n.description, n.command?.command, n.command?.args]),
      [
        ['mssql:mssql-a', 'Sales (dev)', 'sql01,1500', TREE_COMMANDS.connectSqlExtension, ['mssql-a']],
        ['mssql:mssql-b', 'Azure lab', 'lab.database.windows.net', TREE_COMMANDS.connectSqlExtension, ['mssql-b']],
      ],
    );
    assert.match(group.children![0].ariaLabel, /SQL extension connection Sales \(dev\), sql01,1500, SQL login spin/);
  }
  const connected = { ...connectedState(), connection: { status: 'connected' as const, profileId: 'mssql-b', error: null } };
  const node = all(buildLabTree({ state: connected, journals: [], sqlConnections: sql })).find((n) => n.id === 'mssql:mssql-b');
  assert.equal(node?.description, 'connected');
  assert.equal(node?.contextValue, 'mssqlConnection.connected');
  assert.equal(
    all(buildLabTree({ state: connected, journals: [], sqlConnections: null })).some((n) => n.id === 'group:mssql'),
    false,
    'no SQL extension: no such group',
  );
});

it("connected: connections, presets and this server's experiments, each item opening what it names", () => {
  const e = experiment('exp-1', [1, 2], { title: 'disk-insert sweep' });
  const state = connectedState({ history: [summaryOf(e)] });
  const roots = buildLabTree({ state, journals: [] });
  assert.deepEqual(labels(roots), [
    'Connections',
    'Panel',
    'Presets',
    `Experiments on ${state.server!.identity.serverName}`,
    `Watch ${state.server!.identity.serverName}`,
  ]);
  assert.equal(roots[4].description, 'read-only');
  assert.equal(roots[4].command?.command, TREE_COMMANDS.openWatch);
  const [conns, , presets, exps] = roots;
  assert.deepEqual(labels(conns.children!), ['Lab box', 'Simulator']);
  const sim = conns.children![1];
  assert.equal(sim.description, 'connected');
  assert.equal(sim.contextValue, 'connection.connected');
  assert.deepEqual(sim.command, { command: TREE_COMMANDS.connectProfile, title: 'Open in the connection form', args: ['sim'] });
  assert.equal(conns.children![0].description, 'lab1.contoso.local');
  assert.equal(presets.children!.length, 5);
  const wl = presets.children!.find((n) => n.id === 'preset:writelog')!;
  assert.match(wl.tooltip, /Reproduces Chris Adkin, “WRITELOG At Scale: Going Beyond "You need faster disks"”/);
  assert.equal(exps.children!.length, 1);
  assert.deepEqual(exps.children![0].command, { command: TREE_COMMANDS.openExperiment, title: 'Open in the panel', args: ['exp-1'] });
  assert.equal(exps.children![0].label, 'disk-insert sweep');
});

it('every item has a tooltip and a screen-reader label that says what it is', () => {
  const state = connectedState({ history: [summaryOf(experiment('exp-1', [1]))], journal: JOURNAL });
  for (const n of all(buildLabTree({ state, journals: [] }))) {
    assert.ok(n.tooltip.length > 0, `${n.id} tooltip`);
    assert.ok(n.ariaLabel.length > n.label.length || n.ariaLabel.includes(n.label), `${n.id} aria label: ${n.ariaLabel}`);
    assert.ok(n.icon, `${n.id} icon`);
  }
});

it('an unrestored journal comes first with Restore, connected or not', () => {
  const connected = buildLabTree({ state: connectedState({ journal: JOURNAL }), journals: [] });
  assert.equal(connected[0].contextValue, 'journal');
  assert.equal(connected[0].description, 'Restore');
  assert.deepEqual(connected[0].command, { command: TREE_COMMANDS.restore, title: 'Restore', args: [] });
  assert.match(connected[0].ariaLabel, /unrestored affinity on lab1\.contoso\.local/);
  // Not connected: a journal found on this machine keeps the tree (and its Restore) in view, and says to connect.
  const cold = buildLabTree({ state: null, journals: [JOURNAL] });
  assert.deepEqual(
    cold.map((n) => n.contextValue),
    ['journal', 'group', 'group'],
  );
  assert.match(cold[0].tooltip, /Connect to the server first/);
  assert.ok(!cold.some((n) => n.label.startsWith('Experiments on')), "no server: no server's experiments");
  // Connected without a journal for this server: a journal file on disk (the running experiment's own) is not shown.
  assert.deepEqual(
    buildLabTree({ state: connectedState(), journals: [JOURNAL] }).map((n) => n.contextValue),
    ['group', 'group', 'group', 'group', 'watch'],
  );
});

it("connected: the Panel group opens each of the panel's views, Now first", () => {
  const panel = buildLabTree({ state: connectedState(), journals: [] }).find((n) => n.id === 'group:views');
  assert.ok(panel, 'a Panel group');
  assert.deepEqual(
    panel.children?.map((n) => [n.label, n.command?.command, n.command?.args]),
    [
      ['Now', TREE_COMMANDS.openView, ['now']],
      ['Experiment', TREE_COMMANDS.openView, ['experiment']],
      ['Results and compare', TREE_COMMANDS.openView, ['results']],
      ['Watch', TREE_COMMANDS.openView, ['watch']],
      ['Stacks', TREE_COMMANDS.openView, ['stacks']],
      ['Best settings', TREE_COMMANDS.openView, ['tune']],
      ['History', TREE_COMMANDS.openView, ['history']],
    ],
  );
  assert.match(panel.children![0].tooltip, /What is wrong on this server right now\?/);
  assert.equal(
    buildLabTree({ state: null, journals: [JOURNAL] }).some((n) => n.id === 'group:views'),
    false,
    'not connected: no Panel group',
  );
});

it("the running experiment's own journal is in use by this run: no Restore, no warning", () => {
  const roots = buildLabTree({ state: connectedState({ runJournal: JOURNAL }), journals: [] });
  const inUse = roots.find((n) => n.id.startsWith('journal:'));
  assert.ok(inUse, 'the run journal is listed');
  assert.equal(inUse.contextValue, 'journal.inUse');
  assert.equal(inUse.description, 'in use by this run');
  assert.equal(inUse.command, undefined, 'nothing to restore while the run owns it');
  assert.notEqual(inUse.icon, 'warning');
  assert.ok(!all(roots).some((n) => /Unrestored/.test(n.label)), 'never an unrestored-settings item');
});

it('the journals on this machine are read from the restore journal folder; one of a process still running is not left behind', () => {
  const dir = tmpDir('labtree');
  assert.deepEqual(localJournals(dir), []);
  const journal = (serverKey: string, serverAddress: string, pid: number) =>
    writeJournal(dir, {
      version: 1,
      serverKey,
      serverAddress,
      serverName: serverAddress.toUpperCase(),
      labDatabase: 'SpinlockLab',
      createdAt: '2026-11-20T10:00:00.000Z',
      pid,
      original: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [0, 1] } },
      changes: ['delayedDurability'],
    } as Parameters<typeof writeJournal>[1]);
  journal('k', 'lab9', 4_194_304 + 4242); // above Linux's largest pid: that process is gone
  journal('live', 'lab-running', process.pid); // an experiment in progress in this very process
  const j = localJournals(dir);
  assert.equal(j.length, 1);
  assert.equal(j[0].serverAddress, 'lab9');
  assert.deepEqual(j[0].changes, ['delayedDurability']);
  assert.ok(fs.existsSync(path.join(dir, 'journal')));
});

it('the status bar item shows what runs and how far, only while it runs', () => {
  assert.equal(runStatus(null), null);
  assert.equal(runStatus(connectedState()), null);
  const active = {
    experimentId: 'e1',
    title: 'disk-insert 1, 2',
    scenarioId: 'disk-insert',
    simulated: true,
    status: 'running' as const,
    message: 'run 2 of 2: 2 threads',
    events: [],
    runs: [
      { index: 0, threads: 1, status: 'completed' as const, ticks: [] },
      { index: 1, threads: 2, status: 'running' as const, ticks: [tick(0), { ...tick(1), t: 3000 }] },
    ],
  };
  const s = runStatus(connectedState({ active }))!;
  assert.equal(s.text, '$(pulse) disk-insert: run 2 of 2: 2 threads, 3 s');
  assert.match(s.tooltip, /running disk-insert 1, 2 \(simulator\): run 2 of 2: 2 threads, 3 s; 1 run finished\. Click to show the panel\./);
  assert.match(s.ariaLabel, /experiment running: disk-insert, run 2 of 2/);
  assert.equal(runStatus(connectedState({ active: { ...active, status: 'completed' } })), null, 'gone when the experiment ends');
});

it('connected: Watch this server is the last root, and says how a watch in the panel goes', () => {
  const state = connectedState();
  const idle = buildLabTree({ state, journals: [] }).at(-1)!;
  assert.equal(idle.id, 'watch');
  assert.equal(idle.description, 'read-only');
  state.watch = {
    id: 'w',
    title: 'Watch',
    serverName: 'SIM',
    simulated: true,
    status: 'running',
    intervalMs: 1000,
    showBenign: false,
    ticks: 12,
    marks: [],
    diagnosis: [],
    requests: [],
    recent: [],
    message: '',
  };
  const running = buildLabTree({ state, journals: [] }).at(-1)!;
  assert.equal(running.description, 'running, 12 ticks');
  assert.equal(running.contextValue, 'watch.running');
});

const CHECK: CheckView = {
  supported: true,
  notes: [],
  error: null,
  features: [
    { id: 'sample', name: 'Sample the DMVs during a run', canRun: true, reasons: [], grants: [] },
    {
      id: 'affinity',
      name: 'Change process affinity (and restore it)',
      canRun: false,
      reasons: ['needs ALTER SETTINGS (sysadmin and serveradmin have it).'],
      grants: ['USE master; GRANT ALTER SETTINGS TO [weak];'],
    },
    { id: 'watch', name: 'Watch a server without running a workload', canRun: true, reasons: [], grants: [] },
  ],
};

it('connected with a check report: under the connection, "Checks: N of M features can run" with each feature, the GRANT as tooltip', () => {
  const roots = buildLabTree({ state: connectedState({ check: CHECK }), journals: [] });
  const sim = roots[0].children!.find((n) => n.id === 'connection:sim')!;
  assert.equal(roots[0].children!.find((n) => n.id !== 'connection:sim')!.children, undefined, 'only the connected one has checks');
  assert.equal(sim.children?.length, 1);
  const checks = sim.children![0];
  assert.equal(checks.label, 'Checks: 2 of 3 features can run');
  assert.equal(checks.collapsed, false, 'something cannot run: shown open');
  assert.match(checks.ariaLabel, /2 of 3 features can run; 1 cannot/);
  const [sample, affinity] = checks.children!;
  assert.equal(sample.description, 'can run');
  assert.equal(sample.ariaLabel, 'Sample the DMVs during a run: can run');
  assert.equal(affinity.id, 'check:affinity');
  assert.equal(affinity.description, 'cannot run');
  assert.equal(affinity.tooltip, 'USE master; GRANT ALTER SETTINGS TO [weak];');
  assert.match(affinity.ariaLabel, /cannot run\. Fix: USE master; GRANT ALTER SETTINGS TO \[weak\];/);
  for (const n of all(roots)) assert.ok(n.tooltip && n.ariaLabel, `${n.id} has a tooltip and a label`);
  // Everything can run: collapsed; the check failed: one node that says why; no report: no node.
  assert.equal(checksNode({ ...CHECK, features: [CHECK.features[0]] }).collapsed, true);
  const failed = checksNode({ ...CHECK, features: [], error: 'The permission check failed: timeout' });
  assert.equal(failed.label, 'Checks: could not run');
  assert.equal(failed.tooltip, 'The permission check failed: timeout');
  assert.equal(
    buildLabTree({ state: connectedState(), journals: [] })[0].children!.find((n) => n.id === 'connection:sim')!.children,
    undefined,
  );
});
