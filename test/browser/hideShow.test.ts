// The panel hidden and shown again after each everyday task (a preset, a tune, a watch, a stack capture, a re-run)
// with 8 hours of ticks loaded (250 ms ticks: 115,200), in every theme: VS Code recreates a hidden webview (no
// retainContextWhenHidden), which posts `ready` on load and again on visibilitychange, and the host answers each with
// a full snapshot whose ticks travel as columns (and, for stacks, the last capture). Each snapshot goes first through
// a re-implementation of VS Code's message path (test/helpers/vscodeWebviewWire.ts, where the panel went blank
// before). The states and each task's check are in hideShowScenes.ts.
import assert from 'node:assert/strict';
import { useBrowser, type Panel, type Theme } from './harness';
import { assertNotBlank, settle } from './panelShown';
import { scene, TASK_NAMES, TASKS, type Scene } from './hideShowScenes';

const readies = async (p: Panel) => (await p.posted()).filter((m) => m.type === 'ready').length;

/** The host's answer to `ready`. */
async function answerReady(p: Panel, s: Scene): Promise<void> {
  for (const m of s.onReady) await p.send(m);
}

describe('the panel hidden and shown again after each task with 8 hours of ticks', function () {
  this.timeout(300_000);
  const ui = useBrowser();

  for (const task of TASKS)
    for (const theme of ['light', 'dark', 'hc'] as Theme[])
      it(`${theme}: after a ${TASK_NAMES[task]}, a reload and a visibilitychange each show the server and the ${TASK_NAMES[task]}`, async () => {
        const s = scene(task);
        const p = await ui.open(theme);
        try {
          await answerReady(p, s);
          await assertNotBlank(p, 'before hiding');
          // Hidden and shown: VS Code loads the webview again; it posts `ready` and the host answers.
          await p.page.reload();
          await p.page.waitForFunction(() => (globalThis as unknown as { __posted: unknown[] }).__posted.length > 0);
          assert.equal(await readies(p), 1, 'the reloaded panel asked for the state');
          await answerReady(p, s);
          await assertNotBlank(p, 'after the reload');
          await s.check(p);
          // The visibilitychange path: a second `ready`, so two full answers arrive one after the other.
          await p.page.evaluate(() =>
            (globalThis as unknown as { document: { dispatchEvent(e: unknown): void } }).document.dispatchEvent(
              new Event('visibilitychange'),
            ),
          );
          await settle(p);
          assert.equal(await readies(p), 2, 'shown again: ready once more');
          await answerReady(p, s);
          await answerReady(p, s);
          await assertNotBlank(p, 'after visibilitychange');
          await s.check(p);
          assert.equal(await p.page.locator('#state-notice').count(), 0, 'no state was refused');
          assert.equal((await p.posted()).filter((m) => m.type === 'stateResend').length, 0, 'nothing asked again');
          assert.deepEqual(await p.violations(), [], 'no Content-Security-Policy violation');
          assert.deepEqual(p.errors, [], 'no console error');
        } finally {
          await p.close();
        }
      });
});
