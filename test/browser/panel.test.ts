// The panel's webview bundle in Chromium under the real CSP, fed host messages exactly as the extension posts them.
import assert from 'node:assert/strict';
import type { ActiveExperimentView, PanelState } from '../../src/shared/protocol';
import * as b from '../helpers/builders';
import {
  fill,
  points,
  showCharts,
  waitForPoints,
  waitForPosted,
  waitForRequest,
  waitForValue,
  type PageGlobals,
  usePanels,
  showView,
} from './harness';

// One suite per file: its before/after hooks start and stop this file's browser and harness only.
describe('the panel webview in Chromium under the real CSP', () => {
  const { withPanel } = usePanels();

  const CHARTS = ['throughput', 'spinlocks', 'waits', 'latches', 'log', 'cpu'];

  function active(over: Partial<ActiveExperimentView> = {}): ActiveExperimentView {
    return {
      experimentId: 'exp-1',
      title: 'disk-insert sweep',
      scenarioId: 'disk-insert',
      simulated: true,
      status: 'running',
      message: '',
      runs: [],
      events: [],
      ...over,
    };
  }

  it('loads under the CSP, says ready, and shows the connection form with a hint when disconnected', () =>
    withPanel(b.disconnectedState(), async (p) => {
      const posted = await p.posted();
      assert.equal(posted[0].type, 'ready');
      await p.page.waitForSelector('#conn-server');
      assert.match((await p.page.textContent('#section-connection')) ?? '', /Connect to a SQL Server/);
      assert.match((await p.page.textContent('#run-status')) ?? '', /connect to a server first/i);
      assert.equal(await p.page.getAttribute('#btn-run', 'disabled'), '', 'Run is disabled while disconnected');
      // A saved profile is one click away, and the host is told which one.
      await p.page.click('[data-profile="sim"]');
      const pick = await waitForPosted(p, 'profilePick');
      assert.deepEqual(pick.payload, { id: 'sim' });
    }));

  it('connect sends the profile as typed, with the password only in that message', () =>
    withPanel(b.disconnectedState(), async (p) => {
      await fill(p.page, '#conn-server', 'sqlbox01');
      await fill(p.page, '#conn-port', '14330');
      await fill(p.page, '#conn-user', 'spinlab');
      await fill(p.page, '#conn-password', 's3cret!');
      await p.page.focus('#conn-save-password');
      await p.page.keyboard.press('Space');
      await p.page.click('#btn-connect');
      const c = await waitForPosted(p, 'connectionOpen');
      assert.equal(c.payload.profile.server, 'sqlbox01');
      assert.equal(c.payload.profile.port, 14330);
      assert.equal(c.payload.profile.user, 'spinlab');
      assert.equal(c.payload.password, 's3cret!');
      assert.equal(c.payload.savePassword, true);
      // Kept in the form (in memory) while the connect may still fail, so a retry needs no retyping; cleared once connected.
      const field = p.page.locator('#conn-password input');
      assert.equal(await field.inputValue(), 's3cret!', 'kept until the connect succeeds');
      const connected = b.connectedState({ draft: c.payload.profile });
      connected.connection = { status: 'connected', profileId: c.payload.profile.id, error: null };
      await p.send({ type: 'state', payload: { state: connected } });
      for (let i = 0; i < 50 && (await field.inputValue()) !== ''; i++) await p.page.waitForTimeout(100);
      assert.equal(await field.inputValue(), '', 'the password field is cleared once connected');
    }));

  it('connected to the simulator: SIMULATOR badge, topology with online and log-writer CPUs', () =>
    withPanel(b.connectedState(), async (p) => {
      await p.page.waitForSelector('#server-badge');
      assert.match((await p.page.textContent('#server-badge')) ?? '', /SIMULATOR/);
      assert.equal(await p.page.locator('#topology [data-cpu]').count(), 16);
      assert.equal(await p.page.getAttribute('[data-cpu="0"]', 'data-logwriter'), 'true');
      assert.equal(await p.page.getAttribute('[data-cpu="5"]', 'data-online'), 'true');
      assert.match((await p.page.textContent('#run-status')) ?? '', /No runs yet/);
      assert.equal(await p.page.getAttribute('#btn-run', 'disabled'), null, 'Run is enabled with a valid form');
    }));

  it('connected with a check report: "What will work here" lists each feature with data-ok, the GRANT selectable and copyable', () =>
    withPanel(
      b.connectedState({
        check: {
          supported: true,
          notes: [],
          error: null,
          features: [
            { id: 'sample', name: 'Sample the DMVs during a run', canRun: true, reasons: [], grants: [] },
            {
              id: 'affinity',
              name: 'Change process affinity (and restore it)',
              canRun: false,
              reasons: ['needs ALTER SETTINGS.'],
              grants: ['USE master; GRANT ALTER SETTINGS TO [weak];'],
            },
          ],
        },
      }),
      async (p) => {
        await p.page.waitForSelector('#server-check');
        assert.equal(await p.page.locator('#server-check li[data-feature]').count(), 2);
        assert.equal(await p.page.getAttribute('#server-check li[data-feature="sample"]', 'data-ok'), 'true');
        const affinity = p.page.locator('#server-check li[data-feature="affinity"][data-ok="false"]');
        assert.match((await affinity.textContent()) ?? '', /cannot run/);
        const grant = affinity.locator('pre');
        assert.equal(await grant.textContent(), 'USE master; GRANT ALTER SETTINGS TO [weak];');
        assert.equal(await grant.getAttribute('tabindex'), '0', 'the GRANT is reachable by keyboard');
        await affinity.getByRole('button', { name: /Copy the permission fix/ }).press('Enter');
        const copy = await waitForPosted(p, 'clipboardCopy');
        assert.equal(copy.payload.text, 'USE master; GRANT ALTER SETTINGS TO [weak];');
      },
    ));

  it('clicking topology CPUs and shortcuts edits the affinity spec, and the host hears it', () =>
    withPanel(b.connectedState(), async (p) => {
      await p.page.click('[data-cpu="3"]');
      await waitForValue(p.page, '#knob-affinity', 'cpu:0-2,4-15');
      assert.equal(await p.page.getAttribute('[data-cpu="3"]', 'aria-pressed'), 'false');
      assert.equal(await p.page.getAttribute('[data-cpu="4"]', 'aria-pressed'), 'true');
      assert.match((await p.page.textContent('#affinity-resolved')) ?? '', /15 CPUs/);
      const sel = await waitForPosted(p, 'selectionSave');
      assert.equal(sel.payload.knobs.affinity, 'cpu:0-2,4-15');
      await showView(p.page, 'experiment');
      await p.page.click('[data-aff-node-nofirst="1"]');
      await waitForValue(p.page, '#knob-affinity', 'numa:1-first-core');
      assert.equal(await p.page.getAttribute('[data-cpu="8"]', 'aria-pressed'), 'false');
      assert.equal(await p.page.getAttribute('[data-cpu="10"]', 'aria-pressed'), 'true');
      await showView(p.page, 'now');
      await p.page.click('[data-node-toggle="0"]');
      await waitForValue(p.page, '#knob-affinity', 'cpu:0-7,10-15');
      await showView(p.page, 'experiment');
      await fill(p.page, '#knob-affinity', 'numa:7');
      await p.page.waitForSelector('#knob-affinity-error');
      assert.match((await p.page.textContent('#knob-affinity-error')) ?? '', /NUMA node 7 does not exist/);
      assert.equal(await p.page.getAttribute('#btn-run', 'disabled'), '');
    }));

  it('an invalid parameter shows its message under the field and disables Run and Deploy', () =>
    withPanel(b.connectedState(), async (p) => {
      await showView(p.page, 'experiment');
      await fill(p.page, '#param-batch_size', '5000');
      await p.page.waitForSelector('#param-batch_size-error');
      assert.match((await p.page.textContent('#param-batch_size-error')) ?? '', /batch_size.*too large.*1 to 1000/);
      assert.equal(await p.page.getAttribute('#btn-run', 'disabled'), '');
      assert.equal(await p.page.getAttribute('#btn-deploy', 'disabled'), '');
      await fill(p.page, '#param-batch_size', '2');
      await p.page.locator('#param-batch_size-error').waitFor({ state: 'detached' });
      assert.equal(await p.page.getAttribute('#btn-run', 'disabled'), null);
      await fill(p.page, '#run-duration', '30');
      await p.page.waitForSelector('#run-duration-error');
      assert.match((await p.page.textContent('#run-duration-error')) ?? '', /add a unit/);
      await fill(p.page, '#run-duration', '30s');
      await p.page.click('#btn-run');
      const run = await waitForPosted(p, 'experimentRun');
      assert.equal(run.payload.parameters.batch_size, 2);
      assert.equal(run.payload.run.duration, '30s');
    }));

  it('In-Memory OLTP unsupported: the panel says so and what to pick instead', async () => {
    const s = b.connectedState();
    s.server!.identity.xtpSupported = false;
    s.server!.identity.edition = 'Express Edition (64-bit)';
    s.selection.scenarioId = 'ring-buffer';
    s.selection.parameters = { storage: 'memory', slot_source: 'sequence' };
    await withPanel(s, async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#xtp-notice');
      const text = (await p.page.textContent('#xtp-notice')) ?? '';
      assert.match(text, /needs In-Memory OLTP/);
      assert.match(text, /storage = disk/);
      assert.match(text, /Disk-based inserts/);
      assert.equal(await p.page.getAttribute('#btn-run', 'disabled'), '');
    });
  });

  it('the journal banner offers Restore, which posts restore; the error banner shows the fix', async () => {
    const s = b.connectedState({
      journal: {
        serverAddress: '127.0.0.1,14330',
        changes: ['affinity'],
        createdAt: '2025-03-01T10:00:00Z',
        pid: 4242,
        original: 'affinity AUTO',
      },
      lastError: { message: 'The login spinlab lacks VIEW SERVER STATE.', fix: 'GRANT VIEW SERVER STATE TO [spinlab];', action: 'retry' },
    });
    await withPanel(s, async (p) => {
      await p.page.waitForSelector('#journal-banner');
      assert.match((await p.page.textContent('#journal-banner')) ?? '', /affinity AUTO/);
      assert.match((await p.page.textContent('#error-banner')) ?? '', /GRANT VIEW SERVER STATE TO \[spinlab\];/);
      assert.equal(await p.page.getAttribute('#btn-run', 'disabled'), '', 'no run before the restore');
      await p.page.click('#btn-restore');
      await waitForPosted(p, 'serverRestore');
      await p.page.click('#btn-error-action');
      await waitForPosted(p, 'serverRefresh');
    });
  });

  it("the running experiment's own journal is in use by this run: no leftover banner, no Restore, no run blocker", () =>
    withPanel(
      b.connectedState({
        runJournal: {
          serverAddress: '127.0.0.1,14330',
          changes: ['affinity'],
          createdAt: '2025-03-01T10:00:00Z',
          pid: 4242,
          original: 'CPU affinity AUTO',
        },
        active: active({ runs: [{ index: 0, threads: 8, status: 'running', ticks: [] }] }),
      }),
      async (p) => {
        await showView(p.page, 'experiment');
        await p.page.waitForSelector('#journal-in-use');
        const said = (await p.page.textContent('#journal-in-use')) ?? '';
        assert.match(said, /in use by this run/);
        assert.match(said, /puts back\s+CPU affinity AUTO/);
        assert.equal(await p.page.$('#journal-banner'), null, 'not the crash-recovery banner');
        assert.equal(await p.page.$('#btn-restore'), null, 'no Restore under the live run');
        const page = (await p.page.textContent('#app')) ?? '';
        assert.doesNotMatch(page, /Restore the server settings first/);
        assert.doesNotMatch(page, /not put back/);
      },
    ));

  it('every live chart draws more points as ticks arrive', () =>
    withPanel(b.connectedState({ active: active({ runs: [{ index: 0, threads: 8, status: 'running', ticks: [] }] }) }), async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('[data-chart="cpu"]');
      await showCharts(p.page);
      for (const c of CHARTS) assert.equal(await points(p.page, c), 0, c);
      await p.send({ type: 'runStart', payload: { experimentId: 'exp-1', index: 0, threads: 8 } });
      const seen: Record<string, number[]> = Object.fromEntries(CHARTS.map((c) => [c, []]));
      for (let i = 0; i < 5; i++) {
        await p.send({ type: 'runTick', payload: { experimentId: 'exp-1', index: 0, tick: b.tick(i) } });
        await waitForPoints(p.page, 'throughput', i + 1);
        for (const c of CHARTS) seen[c].push(await points(p.page, c));
      }
      for (const c of CHARTS) assert.deepEqual(seen[c], [1, 2, 3, 4, 5], c);
      assert.match((await p.page.textContent('#run-status')) ?? '', /Run 1.*8 threads/);
      assert.equal(await p.page.getAttribute('#run-status', 'data-status'), 'running');
      // Pause stops redrawing and keeps buffering; Resume catches up.
      await p.page.click('#btn-pause');
      await p.send({ type: 'runTick', payload: { experimentId: 'exp-1', index: 0, tick: b.tick(5) } });
      await p.page.waitForTimeout(100);
      assert.equal(await points(p.page, 'throughput'), 5, 'paused: not redrawn');
      await p.page.click('#btn-pause');
      await waitForPoints(p.page, 'throughput', 6);
      // The live run shows in the results with live totals.
      assert.equal(await p.page.locator('#results-table tbody tr').count(), 1);
    }));

  const sweep = b.experiment('exp-2', [1, 2, 4, 8], { ticks: 12, latency: true });

  function finishedSweep(): PanelState {
    const e = sweep;
    return b.connectedState({
      active: active({
        experimentId: e.id,
        title: e.title,
        status: 'completed',
        runs: e.runs.map((r) => ({ index: r.index, threads: r.threads, status: r.status, ticks: r.timeline })),
      }),
      history: [b.summaryOf(e)],
    });
  }

  it('results: sortable by header, copied as TSV', () =>
    withPanel(finishedSweep(), async (p) => {
      // The host sends each run's record as it ends (with client latency, which ticks do not carry).
      for (const record of sweep.runs) await p.send({ type: 'runEnd', payload: { experimentId: sweep.id, record } });
      await showView(p.page, 'results');
      await p.page.waitForSelector('#results-table tbody tr');
      await p.page.locator('#results-table th button[data-sort="p99"]').waitFor();
      const threads = () => p.page.$$eval('#results-table tbody tr', (rows) => rows.map((r) => Number(r.children[1].textContent)));
      assert.deepEqual(await threads(), [1, 2, 4, 8]);
      await p.page.click('button[data-sort="rowsPerSec"]');
      await p.page.click('button[data-sort="rowsPerSec"]');
      await p.page.locator('th[aria-sort="descending"] button[data-sort="rowsPerSec"]').waitFor();
      assert.deepEqual(await threads(), [8, 4, 2, 1], 'most rows/s first');
      await p.page.click('button[data-sort="threads"]');
      await p.page.locator('th[aria-sort="ascending"] button[data-sort="threads"]').waitFor();
      assert.deepEqual(await threads(), [1, 2, 4, 8]);
      await p.page.click('#btn-copy-results');
      const copy = await waitForPosted(p, 'clipboardCopy');
      const lines = copy.payload.text.trim().split('\n');
      assert.equal(lines.length, 5);
      const header = lines[0].split('\t');
      assert.deepEqual(header.slice(0, 5), ['Run', 'Threads', 'Elapsed (s)', 'Rows', 'Rows/s']);
      assert.ok(header.includes('LOGCACHE_ACCESS spins/row'));
      assert.ok(header.includes('WRITELOG wait/row (ms)'));
      assert.ok(!header.some((h) => h.startsWith('LAZYWRITER_SLEEP')), 'benign waits are not result columns');
      assert.ok(header.includes('p99 (µs)'));
      assert.equal(lines[1].split('\t')[1], '1');
      assert.ok(Number(lines[1].split('\t')[4]) > 0);
      // The sort is a view choice, kept in setState.
      const state = (await p.page.evaluate(() => (globalThis as unknown as PageGlobals).__state)) as { sort: unknown };
      assert.deepEqual(state.sort, { key: 'threads', dir: 'ascending' });
    }));

  it('comparison and scaling are computed from the runs; history opens an experiment', () =>
    withPanel(finishedSweep(), async (p) => {
      await showView(p.page, 'results');
      await p.page.waitForSelector('#compare-summary li');
      const summary = (await p.page.textContent('#compare-summary')) ?? '';
      assert.match(summary, /Run A used 1 thread, run B 8/);
      assert.match(summary, /Throughput .* higher in run B/);
      assert.ok((await points(p.page, 'scaling')) >= 8);
      assert.ok((await points(p.page, 'compare')) >= 24);
      await showView(p.page, 'history');
      await p.page.click('[data-open="exp-2"]');
      const open = await waitForRequest(p, 'experimentOpen');
      assert.deepEqual(open.params, { id: 'exp-2' });
    }));

  it('an hour of 1 s ticks loads, and one more tick applies quickly', () =>
    withPanel(b.connectedState(), async (p) => {
      const hour = b.ticks(3600, { threads: 16 });
      const state = b.connectedState({ active: active({ runs: [{ index: 0, threads: 16, status: 'running', ticks: hour }] }) });
      await showCharts(p.page);
      // Handed to the page first, so the time below is the panel's, not Playwright's serialisation of 7 MB.
      await p.page.evaluate((s) => {
        (globalThis as unknown as { __hour: unknown }).__hour = s;
      }, state as unknown);
      const loadMs = await p.page.evaluate(async () => {
        type G = PageGlobals & {
          __hour: unknown;
          requestAnimationFrame(f: () => void): void;
          document: { querySelector(s: string): object | null };
        };
        const g = globalThis as unknown as G;
        const start = performance.now();
        g.postMessage({ type: 'state', payload: { state: g.__hour } }, '*');
        await new Promise<void>((resolve) => {
          const check = () =>
            g.document.querySelector('[data-chart="waits"][data-points="3600"]') ? resolve() : g.requestAnimationFrame(check);
          check();
        });
        return performance.now() - start;
      });
      for (const c of CHARTS) assert.equal(await points(p.page, c), 3600, c);
      const ms = await p.page.evaluate(
        async (tick) => {
          type G = PageGlobals & { requestAnimationFrame(f: () => void): void; document: { querySelector(s: string): object | null } };
          const g = globalThis as unknown as G;
          const start = performance.now();
          g.postMessage({ type: 'runTick', payload: { experimentId: 'exp-1', index: 0, tick } }, '*');
          await new Promise<void>((resolve) => {
            const check = () =>
              g.document.querySelector('[data-chart="cpu"][data-points="3601"]') ? resolve() : g.requestAnimationFrame(check);
            check();
          });
          return performance.now() - start;
        },
        b.tick(3600, { threads: 16 }),
      );
      console.log(`# 3,600 ticks loaded and drawn in ${loadMs.toFixed(0)} ms; one more tick applied and redrawn in ${ms.toFixed(1)} ms`);
    }));
});
