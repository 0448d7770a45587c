// "Find the best settings" in Chromium under the real CSP, fed host messages: the form (checked as typed, Start sends
// tuneStart with every field), the leaderboard as tuneProgress messages arrive (racing, dropped in round N, the round
// and the time used against the budget), Cancel, the explained result (verdict, certainty, more time, reasons citing the
// post, the T-SQL with Copy, not applied), and a saved tune opened from the history. Screenshots:
// test-artifacts/browser/tune-result-{light,dark,hc}.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ActiveExperimentView, PanelState } from '../../src/shared/protocol';
import type { TuneInfo } from '../../src/shared/tune';
import * as b from '../helpers/builders';
import { axeFindings, describeFindings } from './axe';
import { tuneInfo, RESULT } from '../helpers/tuneBuilders';
import { answer, fill, points, root, waitForPosted, waitForRequest, type Panel, type Theme, usePanels, showView } from './harness';

describe('Find the best settings in Chromium', () => {
  const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');
  const panels = usePanels();
  before(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  const ID = 'tune-disk-insert-20261125';
  function active(status: ActiveExperimentView['status'], tune: TuneInfo | null = null): ActiveExperimentView {
    return {
      experimentId: ID,
      title: 'Find the best settings: disk-insert',
      scenarioId: 'disk-insert',
      simulated: true,
      status,
      message: '',
      runs: [],
      events: [],
      tune,
    };
  }
  const running = (): PanelState => b.connectedState({ active: active('running') });
  const progress = (p: Panel, tune: TuneInfo) => p.send({ type: 'tuneProgress', payload: { experimentId: ID, tune } });
  const text = async (p: Panel, sel: string) => ((await p.page.textContent(sel)) ?? '').replace(/\s+/g, ' ');
  const select = (p: Panel, sel: string, value: string) => p.page.selectOption(sel, value);

  it('the form: every field checked as typed, what it will do said before it starts, Start sends tuneStart', () =>
    panels.withPanel(b.connectedState(), async (p) => {
      await showView(p.page, 'tune');
      await p.page.waitForSelector('#tune-form');
      const plan = await text(p, '#tune-plan');
      assert.match(plan, /about 10 minutes \(the budget\)/);
      assert.match(plan, /CPU affinity \(server-wide: it affects everyone on the server\)/);
      assert.match(plan, /put back after each trial/);
      assert.doesNotMatch(plan, /FORCED/, 'FORCED only when ticked');
      // Wrong values are named under their fields and block Start.
      await fill(p.page, '#tune-budget', '10 minutes');
      await p.page.waitForSelector('#tune-budget-error');
      assert.match(await text(p, '#tune-budget-error'), /not a time budget: write e\.g\. 20m/);
      assert.equal(await p.page.getAttribute('#btn-tune-start', 'disabled'), '');
      await fill(p.page, '#tune-budget', '2m');
      await fill(p.page, '#tune-affinity', 'numa:0; numa:7');
      await p.page.waitForSelector('#tune-affinity-error');
      assert.match(await text(p, '#tune-affinity-error'), /NUMA node 7 does not exist/);
      await fill(p.page, '#tune-affinity', 'numa:0; cpu:0,2,4-7');
      await select(p, '#tune-objective', 'spins-per-row');
      await p.page.waitForSelector('#tune-spinlock-error');
      await fill(p.page, '#tune-spinlock', 'LOGCACHE_ACCESS');
      await fill(p.page, '#tune-sessions', '2,4,8');
      await fill(p.page, '#tune-batchSizes', '1,2,x');
      await p.page.waitForSelector('#tune-batchSizes-error');
      await fill(p.page, '#tune-batchSizes', '1,2,4');
      await fill(p.page, '#tune-trial', '2s');
      // Ticked from the keyboard (one toggle, whatever the machine's load does to a pointer click's hit test);
      // the plan is redrawn after it: wait for it rather than read the old words.
      await p.page.locator('#tune-forced').focus();
      await p.page.keyboard.press('Space');
      await p.page.locator('#tune-plan', { hasText: 'delayed durability FORCED' }).waitFor();
      assert.match(await text(p, '#tune-plan'), /about 2 minutes.*delayed durability FORCED/);
      await p.page.locator('#btn-tune-start:not([disabled])').waitFor();
      await p.page.locator('#btn-tune-start').focus();
      await p.page.keyboard.press('Enter');
      await answer(p, await waitForRequest(p, 'tuneCheck'), { problems: [] });
      const start = await waitForPosted(p, 'tuneStart');
      assert.deepEqual(start.payload, {
        workload: { kind: 'scenario', scenarioId: 'disk-insert', parameters: { batch_size: 1, seed_rows: 100000 } },
        mode: 'server-loop',
        objective: 'spins-per-row:LOGCACHE_ACCESS',
        budget: '2m',
        sessions: '2,4,8',
        affinity: ['numa:0', 'cpu:0,2,4-7'],
        batchSizes: '1,2,4',
        allowForced: true,
        sharedServer: false,
        trial: '2s',
      });
      // A preset's scenario instead of the Scenario section's.
      const n = (await p.posted()).length;
      await select(p, '#tune-workload', 'writelog');
      await p.page.locator('#tune-shared').click();
      await p.page.locator('#btn-tune-start').click();
      await answer(p, await waitForRequest(p, 'tuneCheck', n), { problems: [] });
      const second = await waitForPosted(p, 'tuneStart', n);
      assert.deepEqual(second.payload.workload, { kind: 'preset', presetId: 'writelog' });
      assert.equal(second.payload.sharedServer, true);
    }));

  it('the form keeps what was typed when the panel is hidden and shown (the webview reloaded)', () =>
    panels.withPanel(b.connectedState(), async (p) => {
      await showView(p.page, 'tune');
      await p.page.waitForSelector('#tune-form');
      await fill(p.page, '#tune-budget', '25m');
      await fill(p.page, '#tune-sessions', '2,4');
      await p.page.locator('#tune-forced').focus();
      await p.page.keyboard.press('Space');
      await p.page.locator('#tune-plan', { hasText: 'delayed durability FORCED' }).waitFor();
      await p.page.reload();
      await p.page.waitForFunction(() => (globalThis as unknown as { __posted: unknown[] }).__posted.length > 0);
      await p.send({ type: 'state', payload: { state: b.connectedState() } });
      await p.page.waitForSelector('#tune-form');
      assert.equal(await p.page.locator('#tune-budget input').inputValue(), '25m');
      assert.equal(await p.page.locator('#tune-sessions input').inputValue(), '2,4');
      assert.match(await text(p, '#tune-plan'), /about 25 minutes.*delayed durability FORCED/);
    }));

  it('spins per row: the spinlocks the last run spun on are offered, and picking one names it in tuneStart', () => {
    const last: ActiveExperimentView = {
      ...active('completed'),
      experimentId: 'exp-last',
      runs: [{ index: 0, threads: 4, status: 'completed', ticks: b.ticks(6) }],
    };
    return panels.withPanel(b.connectedState({ active: last }), async (p) => {
      await showView(p.page, 'tune');
      await p.page.waitForSelector('#tune-form');
      assert.equal(await p.page.locator('#tune-seen-spinlocks').count(), 0, 'offered only for spins per row');
      await select(p, '#tune-objective', 'spins-per-row');
      const chip = p.page.locator('#tune-seen-spinlocks button[data-spinlock]').first();
      await chip.waitFor();
      const name = (await chip.getAttribute('data-spinlock')) ?? '';
      assert.ok(name.length > 0);
      await chip.focus();
      await p.page.keyboard.press('Enter');
      await p.page.locator('#btn-tune-start:not([disabled])').waitFor();
      await p.page.locator('#btn-tune-start').click();
      await answer(p, await waitForRequest(p, 'tuneCheck'), { problems: [] });
      assert.equal((await waitForPosted(p, 'tuneStart')).payload.objective, `spins-per-row:${name}`);
    });
  });

  it('Start asks the host first; a refusal sits beside its control and changes nothing else on screen', () => {
    const last: ActiveExperimentView = {
      ...active('completed', tuneInfo(2, true)),
      runs: [{ index: 0, threads: 4, status: 'completed', ticks: b.ticks(6) }],
    };
    return panels.withPanel(b.connectedState({ active: last }), async (p) => {
      await showView(p.page, 'tune');
      await p.page.waitForSelector('#tune-result');
      const drawn = await points(p.page, 'throughput');
      const board = await text(p, '#tune-board');
      await p.page.locator('#btn-tune-start').click();
      const asked = await waitForRequest(p, 'tuneCheck');
      assert.equal(asked.params.budget, '10m', 'the form as typed');
      const busy =
        'Other sessions are working on this server (3 running a request, 120 batch requests/s). Start when the server is quiet, or tick “Other work may be running on this server” to run anyway, with wider intervals.';
      const small = '10m is below the 14m this search needs. Give 14m or more, or narrow the search.';
      await answer(p, asked, {
        problems: [
          { field: 'sharedServer', message: busy },
          { field: 'budget', message: small },
        ],
      });
      await p.page.waitForSelector('#tune-sharedServer-error');
      assert.equal(await text(p, '#tune-sharedServer-error'), busy);
      assert.equal(await text(p, '#tune-budget-error'), small);
      assert.equal((await p.posted()).filter((m) => m.type === 'tuneStart').length, 0, 'refused: nothing started');
      // Nothing else moved: the live charts, the leaderboard and the result stay; no banner at the top.
      assert.equal(await points(p.page, 'throughput'), drawn);
      assert.equal(await text(p, '#tune-board'), board);
      assert.equal(await p.page.locator('#tune-result').count(), 1);
      assert.equal(await p.page.locator('#error-banner').count(), 0);
      // Ticking the checkbox the problem names clears it; Start asks again and, with no problem, starts.
      const n = (await p.posted()).length;
      await p.page.locator('#tune-shared').focus();
      await p.page.keyboard.press('Space');
      await p.page.locator('#tune-sharedServer-error').waitFor({ state: 'detached' });
      await fill(p.page, '#tune-budget', '15m');
      await p.page.locator('#btn-tune-start').click();
      await answer(p, await waitForRequest(p, 'tuneCheck', n), { problems: [] });
      const start = await waitForPosted(p, 'tuneStart', n);
      assert.equal(start.payload.sharedServer, true);
    });
  });

  it('with a custom workload in the Scenario section, Start says so instead of "fix the parameters"', () => {
    const base = b.connectedState();
    return panels.withPanel({ ...base, selection: { ...base.selection, scenarioId: 'custom', parameters: {} } }, async (p) => {
      await showView(p.page, 'tune');
      await p.page.waitForSelector('#tune-form');
      const why = await text(p, '#tune-blocker');
      assert.doesNotMatch(why, /Fix the scenario/);
      assert.match(why, /custom workload, which this form cannot tune: pick a preset under Workload/);
      await select(p, '#tune-workload', 'writelog');
      await p.page.locator('#btn-tune-start:not([disabled])').waitFor();
    });
  });

  it('the leaderboard follows tuneProgress: racing, then dropped in round 2; the round and the time used; Cancel stops it', () =>
    panels.withPanel(running(), async (p) => {
      await showView(p.page, 'tune');
      await p.page.waitForSelector('#tune-form');
      assert.equal(await p.page.locator('#tune-progress').count(), 0, 'no search shown before its first progress');
      await progress(p, tuneInfo(1));
      await p.page.waitForSelector('#tune-board tr[data-config="c0"]');
      assert.deepEqual(await p.page.$$eval('#tune-board tbody tr', (rows) => rows.map((r) => r.getAttribute('data-state'))), [
        'racing',
        'racing',
        'racing',
      ]);
      assert.match(await text(p, '#tune-round'), /Round 1 \(screen\) · 2:05 of 10:00 used/);
      const first = await text(p, '#tune-board tr[data-config="c1"]');
      assert.match(first, /log writer's node \(numa:0\) · 2 rows\/tx 8 52,000 \[47,000, 57,000\] rows\/s 2 racing/);
      assert.match(await text(p, '#tune-board tr[data-config="c0"]'), /current settings/);
      // A malformed message is dropped: the board stays as it was.
      await p.send({ type: 'tuneProgress', payload: { experimentId: ID, tune: { rounds: 'no' } } as never });
      await progress(p, tuneInfo(2));
      await p.page.waitForSelector('#tune-board tr[data-config="c0"][data-state="dropped"]');
      assert.match(await text(p, '#tune-board tr[data-config="c0"]'), /dropped in round 2 · its interval lies wholly below/);
      assert.match(await text(p, '#tune-board tr[data-config="c1"]'), /53,100 \[51,000, 55,300\] rows\/s 4 racing/);
      assert.match(await text(p, '#tune-round'), /Round 2 \(race\) · 4:10 of 10:00 used/);
      assert.equal(await p.page.locator('#btn-tune-start[disabled]').count(), 1, 'no second search while one runs');
      await p.page.locator('#btn-tune-cancel').focus();
      await p.page.keyboard.press('Enter');
      await waitForPosted(p, 'experimentStop');
      // The host's snapshot after the cancel: no Cancel any more, the standings stay.
      await p.send({ type: 'state', payload: { state: b.connectedState({ active: active('cancelled', tuneInfo(2)) }) } });
      await p.page.waitForSelector('#tune-progress[data-state="ended"]');
      assert.equal(await p.page.locator('#btn-tune-cancel').count(), 0);
      assert.equal(await p.page.locator('#tune-board tbody tr').count(), 3);
    }));

  const result = (theme: Theme) => async (p: Panel) => {
    await showView(p.page, 'tune');
    await p.page.waitForSelector('#tune-form');
    await progress(p, tuneInfo(2, true));
    await p.send({ type: 'state', payload: { state: b.connectedState({ active: active('completed', tuneInfo(2, true)) }) } });
    await p.page.waitForSelector('#tune-result');
    assert.equal(await text(p, '#tune-verdict'), RESULT.verdict);
    assert.equal(await text(p, '#tune-certainty'), RESULT.certainty);
    assert.equal(await text(p, '#tune-more-time'), RESULT.moreTime);
    const why = await text(p, '#tune-reasons');
    assert.match(why, /LOGCACHE_ACCESS spins per row 4\.2x lower with the workers on the log writer's node/);
    assert.match(why, /see Chris Adkin, NUMA, The LOGCACHE_ACCESS Spinlock and The Best Machine for OLTP Workloads \(2015/);
    assert.deepEqual(await p.page.$$eval('#tune-board tbody tr', (rows) => rows.map((r) => r.getAttribute('data-state'))), [
      'winner',
      'runner-up',
      'dropped',
    ]);
    assert.equal(await p.page.textContent('#tune-sql'), RESULT.applySql.join('\n'));
    assert.match(await text(p, '#tune-applied'), /^Not applied: the server’s settings were put back after every trial/);
    await p.page.locator('#btn-tune-copy').focus();
    await p.page.keyboard.press('Enter');
    const copy = await waitForPosted(p, 'clipboardCopy');
    assert.equal(copy.payload.text, RESULT.applySql.join('\n'));
    await p.page.locator('#section-tune').screenshot({ path: path.join(ARTIFACTS, `tune-result-${theme}.png`) });
    const findings = await axeFindings(p.page);
    assert.deepEqual(findings, [], describeFindings(findings));
  };
  for (const theme of ['light', 'dark', 'hc'] as const)
    it(`the explained result in the ${theme} theme: verdict, certainty, more time, why (citing the post), the T-SQL with Copy`, () =>
      panels.withPanel(b.connectedState(), result(theme), theme));

  it('a saved tune opened from the history shows its result', () => {
    const saved = {
      ...b.experiment('tune-saved', [8]),
      kind: 'tune' as const,
      title: 'Find the best settings: yesterday',
      tune: tuneInfo(2, true),
    };
    return panels.withPanel(b.connectedState({ history: [b.summaryOf(saved)] }), async (p) => {
      await showView(p.page, 'history');
      await p.page.waitForSelector('#history li[data-experiment="tune-saved"]');
      assert.match(await text(p, '#history li[data-experiment="tune-saved"]'), /find the best settings · disk-insert · 1 trial /);
      await p.page.locator('[data-open="tune-saved"]').click();
      await answer(p, await waitForRequest(p, 'experimentOpen'), { experiment: saved, preset: null });
      await showView(p.page, 'tune');
      await p.page.waitForSelector('#tune-result');
      assert.equal(await text(p, '#tune-shown'), 'Opened: Find the best settings: yesterday');
      assert.equal(await text(p, '#tune-verdict'), RESULT.verdict);
    });
  });
});
