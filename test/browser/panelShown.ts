// What the state tests share (no tests here): waiting until the panel handled what was posted, and checking that a
// connected panel is not blank.
import assert from 'node:assert/strict';
import type { Panel, PageGlobals } from './harness';

/** Resolves once the panel has handled every message posted before (messages to a window arrive in order). */
export function settle(p: Panel): Promise<void> {
  return p.page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const g = globalThis as unknown as PageGlobals & {
          addEventListener(t: string, f: (e: { data: unknown }) => void): void;
          removeEventListener(t: string, f: (e: { data: unknown }) => void): void;
        };
        const mark = `settled-${Math.random()}`;
        const on = (e: { data: unknown }) => {
          if ((e.data as { type?: unknown })?.type !== mark) return;
          g.removeEventListener('message', on);
          resolve();
        };
        g.addEventListener('message', on);
        g.postMessage({ type: mark }, '*');
      }),
  );
}

/** The panel shows the connected server and its sections, not the empty "not connected" / "Loading..." panel. */
export async function assertNotBlank(p: Panel, what: string): Promise<void> {
  await settle(p);
  assert.equal(await p.page.locator('.panel-header .muted').textContent(), 'SIMBOX (simulator)', `${what}: the server is shown`);
  assert.equal(await p.page.locator('#app p.empty', { hasText: 'Loading' }).count(), 0, `${what}: no section says Loading`);
  assert.ok((await p.page.locator('#app section').count()) > 5, `${what}: the sections are drawn`);
}
