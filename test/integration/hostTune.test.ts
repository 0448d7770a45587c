// "Find the best settings" through LabController as the panel drives it (messages through receive), connected to the
// simulator: the form's intent checked into the engine's TuneOptions, the server-wide changes confirmed first (the
// affinity, FORCED only when allowed; nothing runs when declined or when a field is wrong), the search's state
// forwarded as tuneProgress and kept in the active view, its runs' ticks forwarded as any run's, and Stop aborting it.
// The engine's search is a stand-in here (LabControllerOptions.runTune) that records what the host asked for.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { TuneOptions, TuneProgress } from '../../src/engine/tune/types';
import type { TuneStartIntent } from '../../src/shared/tuneMessages';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import { simProfile, waitFor } from '../helpers/host';
import { fakePorts, tmpDir, type FakePorts } from '../unit/host/fakePorts';
import * as b from '../helpers/builders';
import { tuneInfo } from '../helpers/tuneBuilders';
import { LabController } from '../../src/host/labController';
import type { TuneRunner } from '../../src/host/features/tune/tuneRunner';
import { TUNE_CONFIRM_ACTION } from '../../src/host/tuneRequest';
import type { Simulator } from '../../tools/sim/simulator';

async function controller(sim: Simulator, ports: FakePorts, runTune: TuneRunner): Promise<LabController> {
  const c = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state'), runTune });
  await c.start();
  await c.receive({ type: 'connectionOpen', payload: { profile: simProfile(sim), password: SIM_PASSWORD, savePassword: false } });
  assert.equal(ports.lastState().connection.status, 'connected', JSON.stringify(ports.lastState().connection.error));
  return c;
}

const intent = (over: Partial<TuneStartIntent> = {}): TuneStartIntent => ({
  workload: { kind: 'scenario', scenarioId: 'disk-insert', parameters: { batch_size: 1 } },
  mode: 'server-loop',
  objective: 'spins-per-row:logcache_access',
  budget: '30m',
  sessions: '2,4',
  affinity: ['numa:0', 'exclude-core0'],
  batchSizes: '1,2',
  allowForced: false,
  sharedServer: true,
  trial: '2s',
  ...over,
});

/** A stand-in search: one trial's start and end, the state after it, then the result; records what it was asked. */
function standIn(asked: TuneOptions[], hold?: (signal: AbortSignal) => Promise<void>): TuneRunner {
  return async (o, signal, progress: (p: TuneProgress) => void) => {
    asked.push(o);
    const e = { ...b.experiment(o.id!, [2]), kind: 'tune' as const, title: o.title!, tune: tuneInfo(1) };
    progress({ kind: 'run-start', run: 0, threads: 2, arm: { id: 'c1', label: "log writer's node" }, repetition: 1 } as TuneProgress);
    progress({ kind: 'tune', tune: tuneInfo(1) });
    await hold?.(signal);
    progress({ kind: 'run-end', record: e.runs[0] });
    e.tune = tuneInfo(2, true);
    progress({ kind: 'tune', tune: e.tune });
    return { experiment: e, file: path.join(o.outDir, 'experiment.json') };
  };
}

describe('Find the best settings in the panel (host)', function () {
  this.timeout(60_000);

  it('checks the intent into TuneOptions, confirms the server-wide changes, forwards tuneProgress and keeps it in the active view', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const asked: TuneOptions[] = [];
      const c = await controller(sim, ports, standIn(asked));
      try {
        await c.receive({ type: 'tuneStart', payload: intent() });
        await waitFor('the search', () => ports.lastState().active?.status === 'completed');
        assert.equal(ports.confirms.length, 1);
        const q = ports.confirms[0];
        assert.equal(q.actionLabel, TUNE_CONFIRM_ACTION);
        assert.match(q.detail, /for about 30 minutes \(its budget\)/);
        assert.match(
          q.detail,
          /CPU affinity \(server-wide, affects everyone on the server\): AUTO.* -> each of CPUs .* \(numa:0\); CPUs .* \(exclude-core0\), one trial at a time/,
        );
        assert.match(q.detail, /put back after each trial/);
        assert.doesNotMatch(q.detail, /FORCED/, 'FORCED is never tried unless allowed');
        assert.equal(asked.length, 1);
        const o = asked[0];
        assert.equal(o.scenarioId, 'disk-insert');
        assert.equal(o.parameters.batch_size, 1);
        assert.deepEqual(o.objective, { kind: 'spins-per-row', spinlock: 'LOGCACHE_ACCESS' });
        assert.equal(o.budgetMs, 1_800_000);
        assert.equal(o.trialMs, 2000);
        assert.deepEqual(o.request, { affinity: ['numa:0', 'exclude-core0'], sessions: [2, 4], batchSizes: [1, 2] });
        assert.equal(o.sharedServer, true);
        assert.equal(o.apply, undefined, 'the winner is never left applied from the panel');
        const id = o.id!;
        const forwarded = ports.ofType('tuneProgress').map((m) => m.payload);
        assert.ok(forwarded.length >= 2);
        assert.ok(forwarded.every((m) => m.experimentId === id));
        assert.equal(forwarded[0].tune.rounds.length, 1);
        assert.ok(forwarded.at(-1)!.tune.result, 'the last one carries the result');
        assert.equal(ports.ofType('runStart').length, 1, 'the trials reach the live charts as runs');
        assert.equal(ports.ofType('runEnd').length, 1);
        assert.equal(ports.lastState().active!.tune!.result!.verdict, tuneInfo(2, true).result!.verdict, 'a reloaded webview redraws it');
      } finally {
        await c.dispose();
      }
    }));

  it('FORCED is named in the confirmation only when allowed; declined, nothing runs; a wrong field runs nothing and says why', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const asked: TuneOptions[] = [];
      const c = await controller(sim, ports, standIn(asked));
      try {
        ports.confirmAnswer = false;
        await c.receive({
          type: 'tuneStart',
          payload: intent({ allowForced: true, affinity: [], workload: { kind: 'preset', presetId: 'writelog' } }),
        });
        assert.equal(ports.confirms.length, 1);
        assert.match(ports.confirms[0].detail, /candidates built from the server's topology/);
        assert.match(
          ports.confirms[0].detail,
          /Delayed durability on \[SpinlockLab\]: .* -> FORCED in some trials \(trades durability for speed\)/,
        );
        assert.equal(asked.length, 0, 'declined: nothing ran');
        ports.confirmAnswer = true;
        await c.receive({ type: 'tuneStart', payload: intent({ budget: '30s', affinity: ['numa:9'], objective: 'fastest' }) });
        const err = ports.lastState().lastError?.message ?? '';
        assert.match(err, /Objective: 'fastest' is not an objective/);
        assert.match(err, /Budget: A budget of 30s is out of range/);
        assert.match(err, /CPU affinity "numa:9"/);
        assert.equal(ports.confirms.length, 1, 'nothing to confirm: nothing runs');
        assert.equal(asked.length, 0);
        // A budget the space cannot hold is refused before the question too, in the form's words.
        await c.receive({ type: 'tuneStart', payload: intent({ budget: '1m' }) });
        assert.match(ports.lastState().lastError?.message ?? '', /^Budget: 1m is below the \d+m this search needs/);
        assert.doesNotMatch(ports.lastState().lastError?.message ?? '', /--budget/);
        assert.equal(ports.confirms.length, 1, 'refused before the confirmation');
        assert.equal(asked.length, 0);
        // A preset's scenario, with the preset recorded.
        await c.receive({ type: 'tuneStart', payload: intent({ workload: { kind: 'preset', presetId: 'writelog' }, batchSizes: '' }) });
        await waitFor('the search', () => asked.length === 1 && ports.lastState().active?.status === 'completed');
        assert.equal(asked[0].scenarioId, 'disk-insert');
        assert.equal(asked[0].preset?.id, 'writelog');
      } finally {
        await c.dispose();
      }
    }));

  it('Stop aborts the search (the engine puts the knobs back) and the view says cancelled', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const asked: TuneOptions[] = [];
      // Ends by itself after a while when the abort never reaches it, so a broken Stop fails the test rather than hangs.
      const hold = (signal: AbortSignal) =>
        new Promise<void>((resolve, reject) => {
          setTimeout(resolve, 5000);
          signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
        });
      const c = await controller(sim, ports, standIn(asked, hold));
      try {
        // receive awaits the handler, which runs the whole search: Stop arrives meanwhile.
        const started = c.receive({ type: 'tuneStart', payload: intent() });
        await waitFor('the first progress', () => ports.ofType('tuneProgress').length === 1);
        await c.receive({ type: 'experimentStop', payload: {} });
        await started;
        assert.equal(ports.lastState().active?.status, 'cancelled');
        assert.equal(ports.lastState().active!.tune!.rounds.length, 1, 'the standings so far stay');
        assert.equal(c.isRunning, false);
      } finally {
        await c.dispose();
      }
    }));
});
