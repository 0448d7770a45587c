// The panel's states after each everyday task, for the hide-and-show test (no tests here): a preset, a tune, a watch,
// a stack capture and a re-run, each with 8 hours of 250 ms ticks wherever the state carries ticks, what the host
// sends on `ready` (the state through VS Code's wire, plus the last capture for stacks), and a check that the task's
// own content is on screen. Built from the test builders, not recorded JSON.
import assert from 'node:assert/strict';
import type { ActiveExperimentView, PanelState, ToWebviewMessage, WatchView } from '../../src/shared/protocol';
import type { WatchTick } from '../../src/shared/watch';
import { fullStatePayload } from '../../src/shared/stateSnapshot';
import * as b from '../helpers/builders';
import { RESULT, tuneInfo } from '../helpers/tuneBuilders';
import { throughVsCode } from '../helpers/vscodeWebviewWire';
import { showCharts, type Panel } from './harness';

export const EIGHT_HOURS = (8 * 3600 * 1000) / 250;
/** As many recent ticks as the host keeps for a reloaded webview (WATCH_RECENT_TICKS in the watch feature). */
const WATCH_RECENT = 120;

export const TASKS = ['preset', 'tune', 'watch', 'stacks', 'rerun'] as const;
export type Task = (typeof TASKS)[number];
/** Each task in the tests' names. */
export const TASK_NAMES: Record<Task, string> = {
  preset: 'preset',
  tune: 'tune',
  watch: 'watch',
  stacks: 'stack capture',
  rerun: 're-run',
};

export interface Scene {
  state: PanelState;
  /** What the host posts on `ready`, in order: the full snapshot as VS Code delivers it, then the feature's own. */
  onReady: ToWebviewMessage[];
  /** Ticks of each experiment run (all runs equally long): the throughput chart's data-points once drawn. */
  runTicks: number;
  /** The task's own content is shown (run after every show). */
  check(p: Panel): Promise<void>;
}

/** A completed experiment whose runs share the 8 hours equally. */
function experiment(id: string, title: string, runs: { threads: number; arm?: { id: string; label: string } }[]): ActiveExperimentView {
  const per = EIGHT_HOURS / runs.length;
  return {
    experimentId: id,
    title,
    scenarioId: 'disk-insert',
    simulated: true,
    status: 'completed',
    message: '',
    events: [],
    runs: runs.map((r, i) => ({
      index: i,
      threads: r.threads,
      status: 'completed' as const,
      ticks: b.ticks(per, { threads: r.threads, intervalMs: 250, seed: i + 1 }),
      ...(r.arm ? { arm: r.arm } : {}),
    })),
  };
}

let presetRun: ActiveExperimentView | undefined;
/** The writelog preset just run (two arms); shared by the scenes that follow it, so its ticks are built once. */
function preset(): ActiveExperimentView {
  return (presetRun ??= experiment('exp-preset', 'writelog preset', [
    { threads: 2, arm: { id: 'A', label: 'A: delayed durability off' } },
    { threads: 2, arm: { id: 'B', label: 'B: FORCED' } },
  ]));
}

/** A tune's trials: two rounds of three configurations (the leaderboard of tuneBuilders). */
function tune(): ActiveExperimentView {
  const trials = [8, 8, 8, 8, 4, 8].map((threads) => ({ threads }));
  return { ...experiment('exp-tune', 'Find the best settings: disk-insert', trials), tune: tuneInfo(2, true) };
}

/** The i-th tick of a watch (0-based), as the watch feature posts it. */
function watchTick(i: number): WatchTick {
  return {
    ...b.tick(i, { intervalMs: 250 }),
    all: { spins: 5e5, backoffs: 200, collisions: 900, waitMs: 340, waitCount: 80, latchMs: 25, latchCount: 40 },
    logByDb: {},
    cpuByScheduler: { 0: 40, 1: 55 },
    pendingIo: 1,
    requests: [],
    waitingNow: [{ waitType: 'WRITELOG', tasks: 8, maxWaitMs: 4, totalWaitMs: 20 }],
  };
}

const WATCH_ID = '2026-11-24T00-00-00-000Z-watch';
/** A watch running for 8 hours: the host keeps its last ticks for a reloaded panel (`recent`). */
function watch(): WatchView {
  const recent = Array.from({ length: WATCH_RECENT }, (_, i) => watchTick(EIGHT_HOURS - WATCH_RECENT + i));
  return {
    id: WATCH_ID,
    title: 'Watch of SIMBOX',
    serverName: 'SIMBOX',
    simulated: true,
    status: 'running',
    intervalMs: 250,
    showBenign: false,
    ticks: EIGHT_HOURS,
    marks: [{ id: 'm1', name: 'index rebuilt', t: 3_600_000, at: '2026-11-24T01:00:00.000Z' }],
    startedAt: new Date(Date.now() - 8 * 3600 * 1000).toISOString(),
    diagnosis: ['WRITELOG 12 ms per wait is above the log write stall of 2 ms (threshold: 2x)'],
    requests: [],
    recent,
    message: 'watching SIMBOX every 250 ms',
  };
}

/** The full snapshot as the webview receives it through VS Code (one buffer for every tick column). */
function snapshot(state: PanelState): ToWebviewMessage {
  const { data, buffers } = throughVsCode({ type: 'state', payload: fullStatePayload(state) });
  assert.equal(buffers, 1, 'one buffer for every tick column');
  return data as ToWebviewMessage;
}

const text = async (p: Panel, sel: string) => ((await p.page.textContent(sel)) ?? '').replace(/\s+/g, ' ').trim();

/** The experiment's throughput chart has drawn every tick of a run. */
async function experimentCharted(p: Panel, ticks: number): Promise<void> {
  await showCharts(p.page);
  const chart = p.page.locator('#section-charts [data-chart="throughput"]').first();
  await chart.waitFor({ state: 'attached' });
  await p.page
    .locator(`#section-charts [data-chart="throughput"][data-points="${ticks}"]`)
    .first()
    .waitFor({ state: 'attached', timeout: 60_000 })
    .catch(async () => assert.fail(`the throughput chart shows ${await chart.getAttribute('data-points')} points, not ${ticks}`));
}

/** The watch's spinlock chart once drawn (the panel draws only the charts in view): its data-points. */
async function watchPoints(p: Panel, atLeast: number): Promise<number> {
  await showCharts(p.page, '#watch-charts');
  const chart = p.page.locator('#watch-charts [data-chart="spinlocks"]');
  const points = async () => Number(await chart.getAttribute('data-points'));
  await p.page
    .waitForFunction(
      (n) =>
        Number(
          (
            globalThis as unknown as { document: { querySelector(s: string): { dataset: { points?: string } } | null } }
          ).document.querySelector('#watch-charts [data-chart="spinlocks"]')?.dataset.points,
        ) >= n,
      atLeast,
      { timeout: 30_000 },
    )
    .catch(async () => assert.fail(`the watch's spinlock chart shows ${await points()} points, not at least ${atLeast}`));
  return points();
}

const scenes = new Map<Task, Scene>();

/** The scene after `task`, built once per test run. */
export function scene(task: Task): Scene {
  let s = scenes.get(task);
  if (!s) scenes.set(task, (s = build(task)));
  return s;
}

function build(task: Task): Scene {
  switch (task) {
    case 'preset':
    case 'rerun': {
      const active = task === 'preset' ? preset() : experiment('exp-rerun', 'disk-insert (re-run)', [{ threads: 2 }]);
      const state = b.connectedState({ active });
      const runTicks = active.runs[0].ticks.length;
      return { state, onReady: [snapshot(state)], runTicks, check: (p) => experimentCharted(p, runTicks) };
    }
    case 'tune': {
      const active = tune();
      const state = b.connectedState({ active });
      const runTicks = active.runs[0].ticks.length;
      return {
        state,
        onReady: [snapshot(state)],
        runTicks,
        async check(p) {
          await p.page
            .locator('#tune-result')
            .waitFor({ state: 'attached', timeout: 10_000 })
            .catch(() => assert.fail("the tune's result is not shown"));
          assert.equal(await text(p, '#tune-verdict'), RESULT.verdict, "the tune's verdict");
          const rows = await p.page.$$eval('#tune-board tbody tr', (trs) => trs.map((r) => r.getAttribute('data-state')));
          assert.deepEqual(rows, ['winner', 'runner-up', 'dropped'], "the tune's leaderboard");
          await experimentCharted(p, runTicks);
        },
      };
    }
    case 'watch': {
      // A watch started after the preset: the preset's 8 hours stay on the experiment's charts beside it.
      const state = b.connectedState({ active: preset(), watch: watch() });
      const runTicks = preset().runs[0].ticks.length;
      return {
        state,
        onReady: [snapshot(state)],
        runTicks,
        async check(p) {
          assert.match(await text(p, '#watch-diagnosis'), /WRITELOG 12 ms per wait/, "the watch's diagnosis");
          // A reloaded panel has the host's recent ticks; one only shown again keeps what it had (and the ticks since).
          const n = await watchPoints(p, WATCH_RECENT);
          // The watch goes on: its next tick joins them on the chart.
          await p.send({ type: 'watchTick', payload: { watchId: WATCH_ID, tick: watchTick(EIGHT_HOURS - WATCH_RECENT + n) } });
          await watchPoints(p, n + 1);
          await experimentCharted(p, runTicks);
        },
      };
    }
    case 'stacks': {
      // A capture asked from the preset's charts: the host sends the last capture again on every `ready`.
      const state = b.connectedState({ active: preset() });
      const runTicks = preset().runs[0].ticks.length;
      return {
        state,
        onReady: [snapshot(state), { type: 'stacksResult', payload: { capture: b.stackCapture() } }],
        runTicks,
        async check(p) {
          await p.page
            .locator('#stacks-top > li')
            .first()
            .waitFor({ state: 'attached', timeout: 10_000 })
            .catch(() => assert.fail('the top stacks are not shown'));
          assert.equal(await p.page.locator('#stacks-top > li').count(), 3, 'the top stacks');
          assert.match(await text(p, '#stacks-top > li:first-child summary'), /600 events \(60%\)/, 'the top stack');
          assert.equal(await p.page.locator('#stacks-flame svg').count(), 1, 'the flame view');
          await experimentCharted(p, runTicks);
        },
      };
    }
  }
}
