// The expert review of sql/ against Microsoft's docs: each finding, with the simulator answering as
// SQL Server does, through the real driver.
import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { connect, runFile, withSim } from '../helpers/simClient';
import { ensureLab } from '../../src/engine/lab';
import { DbSession } from '../../src/db/client';
import { readIdentity, readTopology } from '../../src/engine/server';
import { parseAffinity } from '../../src/shared/affinity';
import { topologyText } from '../../src/cli/commands';
import { SpinlabError } from '../../src/engine/errors';
import { targetFor } from '../helpers/simTarget';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runExperiment } from '../../src/engine/experiment';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { listJournals, type Journal } from '../../src/engine/journal';

describe('review: a lab database name QUOTENAME cannot quote', () => {
  it('sql/lab/create.sql refuses a name whose container name would pass 128 characters (QUOTENAME would be NULL)', () =>
    withSim({}, async (sim) => {
      const admin = await connect(sim);
      try {
        await assert.rejects(
          runFile(admin, 'lab/create', { db: [sql.NVarChar(128), 'L'.repeat(120)], mark: [sql.NVarChar(256), 'x'] }),
          (e: { number?: number; message: string }) => e.number === 50005 && /at most 114/.test(e.message),
        );
        const exists = (await admin.request().query(`SELECT name FROM sys.databases WHERE name = '${'L'.repeat(120)}'`)).recordset;
        assert.equal(exists.length, 0);
      } finally {
        await admin.close();
      }
    }));

  it('the engine says what is wrong before sending anything', () =>
    withSim({}, async (sim) => {
      const admin = await DbSession.open(targetFor(sim), { appName: 'test' });
      try {
        const identity = await readIdentity(admin);
        await assert.rejects(
          ensureLab(admin, 'L'.repeat(115), identity),
          (e: unknown) => e instanceof SpinlabError && /at most 114/.test(e.message),
        );
      } finally {
        await admin.close();
      }
    }));
});

describe('review: DELAYED_DURABILITY = ALLOWED is labelled', () => {
  it("a run with ALLOWED says it behaves as DISABLED (the scenarios' commits do not ask)", () =>
    withSim({}, async (sim) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-allowed-'));
      const r = await runExperiment(
        {
          target: targetFor(sim),
          scenarioId: 'disk-insert',
          parameters: { ...defaultParameters(getScenario('disk-insert')), seed_rows: 1000 },
          labDatabase: 'SpinlockLab',
          load: { mode: 'server-loop', threads: [1], durationMs: 500, rows: null, warmupMs: 0, intervalMs: 250 },
          knobs: { delayedDurability: 'ALLOWED' },
          outDir: path.join(dir, 'out'),
          stateDir: path.join(dir, 'state'),
        },
        new AbortController().signal,
      );
      assert.equal(r.experiment.status, 'completed');
      assert.ok(
        r.experiment.events.some((e) => /ALLOWED.*behave as DISABLED/.test(e.message)),
        JSON.stringify(r.experiment.events),
      );
    }));
});

describe('review: a NUMANODE affinity is restored as NUMANODE', () => {
  it('original NUMANODE = 1; a run sets a CPU list; restore puts NUMANODE = 1 back (journaled as nodes)', () =>
    withSim({}, async (sim) => {
      sim.model.setAffinity('NUMANODE = 1');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-numa-'));
      const journals: Journal[] = [];
      const r = await runExperiment(
        {
          target: targetFor(sim),
          scenarioId: 'disk-insert',
          parameters: { ...defaultParameters(getScenario('disk-insert')), seed_rows: 1000 },
          labDatabase: 'SpinlockLab',
          load: { mode: 'server-loop', threads: [1], durationMs: 500, rows: null, warmupMs: 0, intervalMs: 250 },
          knobs: { affinity: 'cpu:20-29' },
          outDir: path.join(dir, 'out'),
          stateDir: path.join(dir, 'state'),
        },
        new AbortController().signal,
        (p) => {
          if (p.kind === 'run-start') journals.push(...listJournals(path.join(dir, 'state')));
        },
      );
      assert.equal(r.experiment.status, 'completed');
      assert.deepEqual(journals[0].original.affinity.numaNodes, [1], 'the journal says how it was set');
      assert.equal(sim.model.affinityForm, 'NUMANODE');
      assert.deepEqual(
        sim.model.onlineCpus(),
        Array.from({ length: 20 }, (_, i) => 20 + i),
      );
    }));
});

describe('review: soft-NUMA (2 x 12 cores: SQL Server 2016+ makes four soft nodes)', () => {
  it('numa:1 is socket 1 (hardware node 1), not the second soft node of socket 0; topology shows both', () =>
    withSim({ topology: '2x12x2', softNuma: true }, async (sim) => {
      const admin = await DbSession.open(targetFor(sim), { appName: 'test' });
      try {
        const identity = await readIdentity(admin);
        const { topology } = await readTopology(admin, identity);
        assert.deepEqual(
          topology.nodes.map((n) => [n.nodeId, n.memoryNodeId]),
          [
            [0, 0],
            [1, 0],
            [2, 1],
            [3, 1],
          ],
        );
        const numa1 = parseAffinity('numa:1', topology);
        assert.deepEqual(
          numa1.cpus,
          Array.from({ length: 24 }, (_, i) => 24 + i),
        );
        const text = topologyText(identity, topology, []);
        assert.match(text, /soft-NUMA nodes differ from the hardware nodes/);
        assert.match(text, /hw node/);
      } finally {
        await admin.close();
      }
    }));
});
