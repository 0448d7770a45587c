// The panel end to end, as a user meets it: the VSIX installed in a real VS Code (code-server 4.100.3), opened from
// the command palette in Chromium, connected to the TDS simulator (running in this process, through the real driver
// in the extension host), a scenario deployed, a two-point sweep whose live charts fill, then a run that changes CPU
// affinity and delayed durability: confirmed in VS Code's modal, seen applied on the simulator during the run, and
// seen put back exactly as it was after Stop; then the writelog preset run from the Presets section (confirmed, both
// arms, knobs back) and its analysis views. Screenshots of the panel and of the analysis in the light and dark themes.
// Spinlock Lab is opened from its Activity Bar view (the welcome view's Connect); the view's tree is checked once
// connected, and the status bar item while a run goes, with screenshots in the light, dark and high-contrast themes.
// On failure: test-artifacts/e2e/<step>-failure.png, the code-server log and the extension host logs.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, type Simulator } from '../../tools/sim/simulator';
import { ARTIFACTS, CodeServer, DARK_THEME, HC_THEME, LIGHT_THEME, VSIX, waitFor } from './codeServer';
import {
  clickDialogButton,
  dialogText,
  editorTab,
  inEachThemeKind,
  launchBrowser,
  openWorkbench,
  runCommand,
  screenshot,
  setColorTheme,
} from './workbench';
import { CHARTS, PanelDriver } from './panelDriver';
import { PANEL_VIEWS } from '../../src/shared/panelViews';

const PASSWORD = 'Sim-E2e-Pw1!';
const LAB_DB = 'SpinlockLab';
/** Two sockets (= two NUMA nodes) x 4 cores x 2 threads: 16 CPUs; core 0 is CPUs 0 and 1. */
const TOPOLOGY = '2x4x2';
/** Not the defaults, so a restore that merely resets to AUTO / DISABLED would be caught. */
const START_AFFINITY = 'CPU = 0 TO 13';
const START_DD = 'ALLOWED';

interface Knobs {
  affinity: { type: string; cpus: number[] };
  delayedDurability: string | null;
}

describe('Spinlock Lab panel in VS Code (code-server) against the simulator', function () {
  this.timeout(240_000);
  let sim: Simulator;
  let cs: CodeServer;
  let browser: Browser | null = null;
  let page: Page | null = null;
  let panel: PanelDriver;
  /** Steps that failed; a step is skipped when one it needs is among them. */
  const failed: string[] = [];
  const resultsDir = () => path.join(cs.dir, 'results');
  /** The experiments the extension saved (experiment.json under spinlab.resultsFolder), oldest first. */
  const savedExperiments = (): { createdAt: string; status: string; runs: { threads: number; status: string }[] }[] =>
    (fs.existsSync(resultsDir()) ? fs.readdirSync(resultsDir()) : [])
      .filter((d) => fs.existsSync(path.join(resultsDir(), d, 'experiment.json')))
      .map((d) => JSON.parse(fs.readFileSync(path.join(resultsDir(), d, 'experiment.json'), 'utf8')))
      .sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));

  /** The knobs as the simulated server holds them (read straight from its model). */
  const knobs = (): Knobs => ({
    affinity: { type: sim.model.affinity.type, cpus: [...sim.model.affinity.cpus] },
    delayedDurability: sim.model.database(LAB_DB)?.delayedDurability ?? null,
  });
  const journals = (): string[] => {
    const dir = path.join(cs.stateDir, 'journal');
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
  };

  /**
   * Runs one step; skipped when a step it needs failed (`needs`, default: every earlier step); when it fails it leaves
   * a screenshot and the logs in test-artifacts/e2e.
   */
  async function step(t: Mocha.Context, name: string, fn: () => Promise<void>, needs?: string[]): Promise<void> {
    const missing = failed.filter((f) => !needs || needs.includes(f));
    if (missing.length) {
      // Mocha's skip takes no reason: say it, so a skipped step is never silent.
      console.log(`      skipped: the step "${missing[0]}" it needs failed`);
      t.skip();
    }
    try {
      await fn();
    } catch (err) {
      failed.push(name);
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      const shot = await screenshot(page, path.join(ARTIFACTS, `${name}-failure.png`));
      cs?.saveLogs(ARTIFACTS, `${name}-failure`);
      const e = err as Error;
      e.message = `[${name}] ${e.message}\n  (artifacts: ${shot ?? 'no screenshot'}, ${path.join(ARTIFACTS, `${name}-failure-code-server.log`)}, ${path.join(ARTIFACTS, `${name}-failure-exthost.log`)})`;
      throw e;
    }
  }

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    sim = await startSimulator({ password: PASSWORD, topology: TOPOLOGY, log: () => {} });
    sim.model.setAffinity(START_AFFINITY);
    cs = new CodeServer({});
    // Experiments go to a temp folder; the restore journal to cs.stateDir (SPINLAB_STATE_DIR): never ~/.spinlab.
    cs.writeSettings({ 'spinlab.resultsFolder': path.join(cs.dir, 'results') });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await sim?.close();
    if (!failed.length) cs?.remove();
    else console.error(`e2e: kept ${cs?.dir} for inspection`);
  });

  /** A row of the Spinlock Lab tree, by the start of its screen-reader label. */
  const treeRow = (label: string) => page!.locator(`.pane-body .monaco-list-row[aria-label^="${label}"]`).first();
  /** Screenshots of the workbench (Activity Bar view, status bar) in the light, dark and high-contrast themes. */
  async function homeShots(): Promise<void> {
    for (const [theme, kind, file] of [
      [LIGHT_THEME, 'light', 'home-light.png'],
      [DARK_THEME, 'dark', 'home-dark.png'],
      [HC_THEME, 'hc-dark', 'home-hc.png'],
    ] as const) {
      await setColorTheme(page!, theme, kind);
      await page!.waitForTimeout(300);
      await page!.screenshot({ path: path.join(ARTIFACTS, file) });
      assert.ok(fs.statSync(path.join(ARTIFACTS, file)).size > 10_000, `expected ${file} to be a real screenshot`);
    }
  }

  it("installs the VSIX and opens Spinlock Lab from its Activity Bar view: the welcome view's Connect opens the panel", function () {
    return step(this, 'open', async () => {
      assert.ok(fs.existsSync(VSIX), `expected ${VSIX}: run npm run build && node scripts/package.js first`);
      cs.installExtension(VSIX);
      await cs.start();
      browser = await launchBrowser();
      page = await openWorkbench(browser, cs.workbenchUrl);
      const home = page.locator('.activitybar [aria-label^="Spinlock Lab"]').first();
      await home.waitFor({ state: 'visible', timeout: 30_000 }).catch(() => {
        throw new Error('expected a "Spinlock Lab" item in the Activity Bar');
      });
      await home.click();
      const welcome = page.locator('.welcome-view-content', { hasText: 'No server is connected' });
      await welcome.waitFor({ state: 'visible', timeout: 20_000 }).catch(() => {
        throw new Error('expected the Spinlock Lab view to show its welcome ("No server is connected") before any connection');
      });
      await screenshot(page, path.join(ARTIFACTS, 'home-welcome.png'));
      await welcome.locator('.monaco-button', { hasText: 'Connect to a Server' }).click();
      await editorTab(page, 'Spinlock Lab')
        .waitFor({ state: 'visible', timeout: 20_000 })
        .catch(() => {
          throw new Error('expected an editor tab "Spinlock Lab" after the welcome view\'s Connect to a Server');
        });
      panel = new PanelDriver(page);
      await panel.visible('#btn-connect', 30_000);
      // The scenario picker is drawn once the host's first state arrived: only then is the form the host's draft
      // (typing earlier would be overwritten by it).
      await panel.visible('#scenario', 30_000);
      await panel.visible('#conn-server');
    });
  }).timeout(90_000);

  it('connects to the simulator through the form', function () {
    return step(this, 'connect', async () => {
      await panel.connectWithForm(sim.host, sim.port, PASSWORD);
      await waitFor('#server-badge to say SIMULATOR', async () => /SIMULATOR/.test(await panel.text('#server-badge')), 30_000).catch(
        async (e) => {
          throw new Error(
            `expected #server-badge to contain SIMULATOR; it says "${await panel.text('#server-badge').catch(() => '(missing)')}" (${(e as Error).message}); error banner: ${await panel.errorBanner()}`,
          );
        },
      );
      // The topology map draws every CPU of the simulated machine, the ones outside the starting affinity offline.
      await waitFor('16 CPUs in #topology', async () => (await panel.frame.locator('#topology [data-cpu]').count()) === 16, 10_000);
      assert.equal(await panel.attr('#topology [data-cpu="0"]', 'data-online'), 'true', 'CPU 0 is in the starting affinity (0-13)');
      assert.equal(await panel.attr('#topology [data-cpu="15"]', 'data-online'), 'false', 'CPU 15 is outside the starting affinity (0-13)');
      // Connected: the Activity Bar view's tree shows the presets and this server's experiments (none yet).
      await treeRow('Presets, 5 items')
        .waitFor({ state: 'visible', timeout: 15_000 })
        .catch(() => {
          throw new Error('expected the Spinlock Lab tree to show "Presets" with 5 items once connected');
        });
      await treeRow('Preset WRITELOG').waitFor({ state: 'visible', timeout: 5_000 });
      await treeRow('Experiments on ').waitFor({ state: 'visible', timeout: 5_000 });
      assert.match((await treeRow('Experiments on ').getAttribute('aria-label')) ?? '', /none yet/);
    });
  }).timeout(60_000);

  it('deploys disk-insert', function () {
    return step(this, 'deploy', async () => {
      await panel.select('#scenario', 'disk-insert');
      await panel.fill('#param-seed_rows', '1000');
      await panel.click('#btn-deploy');
      await panel.waitStatus('#deploy-status', 'deployed', 45_000);
      const db = sim.model.database(LAB_DB);
      assert.ok(db, `expected the simulator to hold the lab database ${LAB_DB} after deploy`);
      assert.ok(
        sim.model.findObject(db, 'dbo.spinlab_disk_insert_loop'),
        'expected dbo.spinlab_disk_insert_loop in the lab database after deploy',
      );
      // Somebody set delayed durability on the lab database before our experiments (the restore must put it back).
      db.delayedDurability = START_DD;
    });
  }).timeout(60_000);

  it('a two-point sweep fills every live chart', function () {
    return step(this, 'sweep', async () => {
      await panel.select('#run-mode', 'server-loop');
      await panel.fill('#run-threads', '1,2');
      // Long enough that a poll of six charts through two iframes, slow on a loaded machine, lands while sessions run.
      await panel.fill('#run-duration', '5s');
      await panel.fill('#run-rows', '');
      await panel.fill('#run-warmup', '0s');
      await panel.fill('#run-interval', '250ms');
      await panel.select('#knob-dd', 'unchanged');
      await panel.fill('#knob-affinity', '');
      const before = knobs();
      const statuses = panel.watchStatus('#run-status');
      await panel.click('#btn-run');
      await panel.showCharts();
      // Live: every chart has points while the sweep's sessions are still loading the server.
      let live: Record<string, number> = {};
      await waitFor(
        'every live chart to have data points while the sweep runs',
        async () => {
          live = await panel.allChartPoints();
          return sim.model.workloads.active().length > 0 && CHARTS.every((c) => live[c] > 0);
        },
        30_000,
      ).catch(() => {
        throw new Error(
          `expected every live chart to get data points during the sweep; data-points: ${JSON.stringify(live)}; sessions running on the server: ${sim.model.workloads.active().length}`,
        );
      });
      await panel.waitStatus('#run-status', 'completed', 40_000);
      const seen = await statuses.stop();
      const points = await panel.allChartPoints();
      const empty = CHARTS.filter((c) => !(points[c] > 0));
      assert.deepEqual(
        empty,
        [],
        `expected every live chart to keep its data points after the sweep; data-points: ${JSON.stringify(points)}`,
      );
      const saved = savedExperiments();
      assert.deepEqual(
        saved.map((e) => ({ status: e.status, threads: e.runs.map((r) => r.threads) })),
        [{ status: 'completed', threads: [1, 2] }],
        `expected one saved experiment (experiment.json in spinlab.resultsFolder ${resultsDir()}), completed, with runs at 1 and 2 threads`,
      );
      assert.deepEqual(knobs(), before, 'a run without knob changes leaves affinity and delayed durability alone');
      assert.deepEqual(journals(), [], 'no restore journal is left after a run without knob changes');
      assert.ok(seen.includes('running'), `expected #run-status to say running while the sweep ran; it went ${seen.join(' -> ')}`);
    });
  }).timeout(60_000);

  it('a run with changed affinity and FORCED delayed durability: confirmed, applied during the run, restored after Stop', function () {
    return step(this, 'knobs', async () => {
      /** Checks that do not stop the step: the restore after Stop is checked even when the status line is wrong. */
      const problems: string[] = [];
      const original = knobs();
      assert.deepEqual(original.affinity, { type: 'MANUAL', cpus: Array.from({ length: 14 }, (_, i) => i) }, 'the starting affinity');
      assert.equal(original.delayedDurability, START_DD, 'the starting delayed durability');

      await panel.fill('#run-threads', '4');
      await panel.fill('#run-duration', '60s');
      await panel.select('#knob-dd', 'FORCED');
      await panel.click('#aff-exclude-core0');
      await waitFor(
        '#knob-affinity to hold the exclude-core0 choice',
        async () => (await panel.value('#knob-affinity')).trim() !== '',
        5_000,
      );
      const spec = await panel.value('#knob-affinity');
      await panel.click('#btn-run');

      const question = await dialogText(page!);
      assert.match(question, /affinity/i, `expected the confirmation to name CPU affinity; it says:\n${question}`);
      assert.match(question, /delayed durability/i, `expected the confirmation to name delayed durability; it says:\n${question}`);
      assert.match(question, /FORCED/, `expected the confirmation to say FORCED; it says:\n${question}`);
      assert.match(question, /put back|restore/i, `expected the confirmation to say the settings will be restored; it says:\n${question}`);
      // From what: the settings the server has now.
      assert.match(question, /0-13/, `expected the confirmation to name the affinity now (CPUs 0-13); it says:\n${question}`);
      assert.match(
        question,
        /ALLOWED\s*(->|→|to)\s*FORCED/,
        `expected the confirmation to say delayed durability goes from ALLOWED to FORCED; it says:\n${question}`,
      );
      await screenshot(page, path.join(ARTIFACTS, 'panel-confirm.png'));
      await clickDialogButton(page!, 'Apply and Run');

      // Applied on the server while the run goes on.
      const during = await waitFor(
        `the simulator to show affinity "${spec}" and delayed durability FORCED during the run`,
        () => {
          const k = knobs();
          return k.delayedDurability === 'FORCED' &&
            k.affinity.type === 'MANUAL' &&
            !k.affinity.cpus.includes(0) &&
            !k.affinity.cpus.includes(1) &&
            JSON.stringify(k.affinity) !== JSON.stringify(original.affinity)
            ? k
            : null;
        },
        30_000,
        50,
      ).catch((e) => {
        throw new Error(`${(e as Error).message}; the simulator holds ${JSON.stringify(knobs())}`);
      });
      assert.deepEqual(
        during.affinity.cpus,
        Array.from({ length: 14 }, (_, i) => i + 2),
        'exclude-core0 on 2x4x2: every CPU but core 0 (CPUs 0 and 1)',
      );
      assert.equal(journals().length, 1, `expected the extension to journal the original settings in SPINLAB_STATE_DIR (${cs.stateDir})`);

      // Midway: the load has run for a while (4 sessions on the server, a second of ticks drawn), far from its 60 s end.
      await waitFor(
        'the 4 sessions of the run to be running on the simulator',
        () => sim.model.workloads.active().length === 4,
        20_000,
        50,
      );
      const loadSince = Date.now();
      await waitFor(
        'a second of load and at least 4 points in the throughput chart',
        async () => Date.now() - loadSince >= 1_000 && (await panel.chartPoints('throughput')) >= 4,
        15_000,
      );
      const midway = await panel.status('#run-status');
      if (midway !== 'running')
        problems.push(
          `expected #run-status to say running while the run's sessions load the server; it says ${midway} ("${await panel.text('#run-status')}")`,
        );
      // The status bar says what runs and how far (its click shows the panel), with a Stop beside it; the tree lists
      // the sweep saved before.
      const running = page!.locator('.statusbar [aria-label^="Spinlock Lab experiment running"]').first();
      await running.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => {
        throw new Error('expected the status bar item "Spinlock Lab experiment running" during the run');
      });
      assert.match((await running.getAttribute('aria-label')) ?? '', /disk-insert, run 1 of 1/);
      await page!
        .locator('.statusbar [aria-label="Stop the running Spinlock Lab experiment"]')
        .first()
        .waitFor({ state: 'visible', timeout: 5_000 });
      assert.match((await treeRow('Experiments on ').getAttribute('aria-label')) ?? '', /1 item\b/);
      assert.equal(
        await page!.locator('.pane-body .monaco-list-row[aria-label^="Warning: unrestored"]').count(),
        0,
        "the running experiment's own journal is not shown as an unrestored one",
      );
      await homeShots();
      assert.deepEqual(knobs(), during, 'the changed settings hold while the run goes on');
      await panel.click('#btn-stop');
      await panel.waitStatus('#run-status', 'cancelled', 30_000);

      const restored = await waitFor(
        'the simulator to be back at the original affinity and delayed durability',
        () => JSON.stringify(knobs()) === JSON.stringify(original),
        15_000,
        50,
      )
        .then(() => knobs())
        .catch(() => {
          throw new Error(
            `expected affinity and delayed durability restored to ${JSON.stringify(original)} after Stop; the simulator holds ${JSON.stringify(knobs())}`,
          );
        });
      assert.deepEqual(restored, original);
      assert.deepEqual(journals(), [], 'the restore journal is removed once the settings are back');
      assert.equal(sim.model.workloads.active().length, 0, 'no workload call is left running on the server after Stop');
      const stopped = await waitFor('the stopped experiment to be saved', () => savedExperiments().length === 2, 10_000)
        .then(() => savedExperiments()[1])
        .catch(() => null);
      assert.equal(
        stopped?.status,
        'cancelled',
        `expected the stopped experiment saved as cancelled in ${resultsDir()}; found ${JSON.stringify(savedExperiments().map((e) => e.status))}`,
      );
      await waitFor(
        'the status bar item to go once the run ended',
        async () => (await page!.locator('.statusbar [aria-label^="Spinlock Lab experiment running"]').count()) === 0,
        10_000,
      );
      if (problems.length) assert.fail(problems.join('\n'));
    });
  }).timeout(90_000);

  it('runs the writelog preset from the Presets section: confirmed, both arms run 3 times alternately, knobs back; the analysis views fill with intervals', function () {
    return step(this, 'preset', async () => {
      const original = knobs();
      // The picker's list opens below it: bring the section to the top so the list is inside the panel.
      await panel.view('experiment');
      await panel.el('#section-presets').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await panel.select('#preset', 'writelog');
      await waitFor(
        'the writelog plan for this server',
        async () => /delayed durability FORCED/.test(await panel.text('#preset-plan')),
        10_000,
      );
      await panel.click('#preset-settings > summary');
      await panel.fill('[data-preset-setting="seed_rows"]', '1000');
      await panel.fill('#preset-threads', '2');
      await panel.fill('#preset-duration', '1s');
      await panel.fill('#preset-warmup', '0s');
      await panel.fill('#preset-interval', '250ms');
      await waitFor(
        'the plan made with these settings',
        async () => (await panel.attr('#preset-plan', 'data-state')) === 'current',
        10_000,
      );
      // A preset repeats 3 times by default, and the form says how long that takes before it starts.
      assert.match(await panel.text('#preset-time'), /^6 runs \(2 arms x 1 thread count x 3 repetitions\): about \d+ s/);
      const saved = savedExperiments().length;
      await panel.click('#btn-run-preset');

      const question = await dialogText(page!);
      assert.match(question, /delayed durability FORCED/, `expected the confirmation to name the FORCED arm; it says:\n${question}`);
      assert.match(question, /ALLOWED\s*(->|→|to)\s*FORCED/, `expected delayed durability from ALLOWED to FORCED; it says:\n${question}`);
      assert.match(
        question,
        /ALLOWED\s*(->|→|to)\s*DISABLED/,
        `expected delayed durability from ALLOWED to DISABLED in the other arm; it says:\n${question}`,
      );
      assert.match(question, /0-13\s*(->|→|to)\s*CPUs 2-15/, `expected the affinity from 0-13 to 2-15; it says:\n${question}`);
      assert.match(question, /put back/i, `expected the confirmation to say the settings are put back; it says:\n${question}`);
      await clickDialogButton(page!, 'Apply and Run');

      await waitFor(
        'the preset experiment to be saved, completed, with both arms',
        () => {
          const all = savedExperiments();
          const last = all[all.length - 1] as unknown as
            { status: string; preset?: { id: string }; runs: { arm: { id: string } }[] } | undefined;
          return all.length === saved + 1 && last?.status === 'completed' && last.preset?.id === 'writelog' ? last : null;
        },
        120_000,
      ).catch(() => {
        throw new Error(
          `expected a completed writelog experiment in ${resultsDir()}; found ${JSON.stringify(savedExperiments().map((e) => e.status))}`,
        );
      });
      const e = savedExperiments()[saved] as unknown as { runs: { threads: number; arm: { id: string } }[] };
      assert.deepEqual(
        e.runs.map((r) => [r.arm.id, r.threads]),
        [
          ['dd-disabled', 2],
          ['dd-forced', 2],
          ['dd-forced', 2],
          ['dd-disabled', 2],
          ['dd-disabled', 2],
          ['dd-forced', 2],
        ],
      );
      await panel.waitStatus('#run-status', 'completed', 20_000);
      await waitFor('the knobs to be back as they were', () => JSON.stringify(knobs()) === JSON.stringify(original), 15_000, 50).catch(
        () => {
          throw new Error(`expected ${JSON.stringify(original)} after the preset; the simulator holds ${JSON.stringify(knobs())}`);
        },
      );
      assert.deepEqual(journals(), []);
      // The analysis views of the experiment just run.
      await panel.visible('#ab-compare .ab-verdict', 15_000);
      assert.match(await panel.text('#ab-compare'), /DISABLED \(A\) against FORCED \(B\)/);
      assert.match(
        await panel.text('#ab-compare .ab-verdict'),
        /B is [\d.]+x faster \(95% interval [\d.]+x to [\d.]+x\)|B is faster by \d+(\.\d)?% \(95% interval/,
      );
      assert.match(await panel.text('#cycle-math'), /logical CPUs \(\d+ threads?; \d+ online schedulers\) x [\d.]+ GHz = /);
      assert.match(await panel.text('#writelog-diagnosis'), /the WRITELOG post/);
    });
  }).timeout(150_000);

  it('saves screenshots of the panel in the light, dark and high-contrast themes', function () {
    return step(
      this,
      'themes',
      async () => {
        await runCommand(page!, 'View: Close Primary Side Bar');
        await runCommand(page!, 'Notifications: Clear All Notifications');
        await panel.view('experiment');
        await panel.el('[data-chart="throughput"]').scrollIntoViewIfNeeded();
        await inEachThemeKind(page!, async (suffix) => {
          const file = path.join(ARTIFACTS, `panel-${suffix}.png`);
          await page!.screenshot({ path: file });
          // Every view as it opens (its headline above the fold), one screenshot each, at 1280x720.
          const files = [file];
          await page!.setViewportSize({ width: 1280, height: 720 });
          for (const v of PANEL_VIEWS) {
            await panel.view(v);
            const shot = path.join(ARTIFACTS, `view-${v}-${suffix}.png`);
            await page!.screenshot({ path: shot });
            files.push(shot);
          }
          await page!.setViewportSize({ width: 1400, height: 900 });
          await panel.view('experiment');
          return files;
        });
      },
      ['open'],
    );
  }).timeout(90_000);

  it('saves screenshots of the analysis views in the light, dark and high-contrast themes', function () {
    return step(
      this,
      'analysis-shots',
      async () => {
        await panel.view('results');
        await panel.el('#section-analysis').scrollIntoViewIfNeeded();
        await panel.el('#section-analysis summary').evaluate((e) => e.scrollIntoView({ block: 'start' }));
        await inEachThemeKind(page!, async (suffix) => {
          const file = path.join(ARTIFACTS, `analysis-${suffix}.png`);
          await page!.screenshot({ path: file });
          return [file];
        });
      },
      ['open', 'preset'],
    );
  }).timeout(90_000);

  it('saves a screenshot of each section (connection, results, analysis, compare, watch) in the three theme kinds', function () {
    return step(
      this,
      'section-shots',
      async () => {
        const sections = ['connection', 'results', 'analysis', 'compare', 'watch'];
        for (const id of sections) await panel.visible(`#section-${id}`, 15_000);
        await inEachThemeKind(
          page!,
          async (suffix) => {
            const files: string[] = [];
            for (const id of sections) {
              const file = path.join(ARTIFACTS, `section-${id}-${suffix}.png`);
              await (await panel.visible(`#section-${id}`)).scrollIntoViewIfNeeded();
              await panel.el(`#section-${id}`).screenshot({ path: file, timeout: 20_000 });
              files.push(file);
            }
            return files;
          },
          2_000,
        ); // a section alone: a short one (Compare with nothing to compare) is a small image
      },
      ['open'],
    );
  }).timeout(150_000);
});
