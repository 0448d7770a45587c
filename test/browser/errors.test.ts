// Errors where the user acted, in the panel's words (Chromium, real CSP): a failed connect sits in the connection form
// beside the field it names (the Password field for a refused login, the "Trust server certificate" checkbox for an
// untrusted certificate), that control focused, with SQL Server's error number, and the form keeps what was typed,
// the password too; a Custom workload run's error sits by its Run button, brought into view, not at the top.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { ConnectionProfile, PanelState, UiError } from '../../src/shared/protocol';
import * as b from '../helpers/builders';
import { fill, usePanels, waitForPosted, type PageGlobals, showView } from './harness';

type Doc = {
  document: {
    activeElement: { id: string } | null;
    querySelector(s: string): { previousElementSibling: { querySelector(s: string): unknown } | null } | null;
  };
};

/** The id of the focused element. */
const focused = (page: Page) => page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.id ?? '');
/** Whether the element before #conn-error (its place in the form) holds `selector`. */
const errorFollows = (page: Page, selector: string) =>
  page.evaluate(
    (sel) => !!(globalThis as unknown as Doc).document.querySelector('#conn-error')?.previousElementSibling?.querySelector(sel),
    selector,
  );
/** Whether an element's box is inside the viewport. */
const inView = (page: Page, selector: string) =>
  page.$eval(selector, (e) => {
    const r = (e as unknown as { getBoundingClientRect(): { top: number; bottom: number } }).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= (globalThis as unknown as { innerHeight: number }).innerHeight;
  });

describe('errors where the user acted, in Chromium', () => {
  const { withPanel } = usePanels();

  /** Types a SQL login into the form, presses Connect, and answers with the state of a failed connect. */
  async function failedConnect(
    p: { page: Page; send(m: unknown): Promise<void> },
    error: UiError,
    since: number,
  ): Promise<ConnectionProfile> {
    await fill(p.page, '#conn-server', 'sqlbox01');
    await fill(p.page, '#conn-port', '14330');
    await fill(p.page, '#conn-user', 'sa');
    await fill(p.page, '#conn-password', 's3cret!');
    await p.page.click('#btn-connect');
    const sent = await waitForPosted(p as never, 'connectionOpen', since);
    const base = b.disconnectedState();
    const connecting: PanelState = {
      ...base,
      draft: sent.payload.profile,
      connection: { status: 'connecting', profileId: sent.payload.profile.id, error: null },
    };
    await p.send({ type: 'state', payload: { state: connecting } });
    const failed: PanelState = {
      ...connecting,
      lastError: error,
      connection: { status: 'disconnected', profileId: sent.payload.profile.id, error },
    };
    await p.send({ type: 'state', payload: { state: failed } });
    await p.page.waitForSelector('#conn-error');
    return sent.payload.profile;
  }

  it('a refused login: beside the Password field, focused, with Msg 18456; the password typed is still there', () =>
    withPanel(b.disconnectedState(), async (p) => {
      await failedConnect(
        p,
        {
          message: "Login failed for user 'sa' (Msg 18456). The server at sqlbox01,14330 answered but refused the login.",
          fix: 'Check the Login and Password fields (kept as you typed them).',
          action: 'connect',
          control: 'password',
        },
        0,
      );
      const said = (await p.page.textContent('#conn-error')) ?? '';
      assert.match(said, /Msg 18456/);
      assert.match(said, /Login and Password fields/);
      assert.ok(await errorFollows(p.page, '#conn-password'), 'the error sits right after the Password field');
      assert.equal(await p.page.$('#error-banner'), null, 'not again at the top of the page');
      assert.equal(await p.page.getAttribute('#conn-password', 'aria-invalid'), 'true', 'the field is marked');
      await p.page.waitForFunction(() => (globalThis as unknown as Doc).document.activeElement?.id === 'conn-password');
      assert.equal(await p.page.locator('#conn-password input').inputValue(), 's3cret!', 'the password is kept (in memory)');
      assert.equal(await p.page.locator('#conn-user input').inputValue(), 'sa');
      const saved = String(JSON.stringify(await p.page.evaluate(() => (globalThis as unknown as PageGlobals).__state)));
      assert.doesNotMatch(saved, /s3cret!/, `never in the saved view state: ${saved}`);
      // Connect again without retyping: the kept password goes with it.
      const before = (await p.posted()).length;
      await p.page.click('#btn-connect');
      assert.equal((await waitForPosted(p, 'connectionOpen', before)).payload.password, 's3cret!');
    }));

  it('an untrusted certificate: beside the "Trust server certificate" checkbox, which is focused', () =>
    withPanel(b.disconnectedState(), async (p) => {
      await failedConnect(
        p,
        {
          message:
            'The server at sqlbox01,14330 is reachable, but this machine does not trust its TLS certificate (self-signed certificate).',
          fix: 'Tick "Trust server certificate" and connect again.',
          action: 'connect',
          control: 'trustServerCertificate',
        },
        0,
      );
      assert.match((await p.page.textContent('#conn-error')) ?? '', /Tick "Trust server certificate"/);
      assert.ok(await errorFollows(p.page, '#conn-trust'), 'the error sits right after the checkboxes');
      await p.page.waitForFunction(() => (globalThis as unknown as Doc).document.activeElement?.id === 'conn-trust');
      assert.equal(await focused(p.page), 'conn-trust');
    }));

  it("a Custom workload run's error: by its Run button, in view and focused, not at the top of the page", () => {
    const base = b.connectedState();
    const state: PanelState = { ...base, selection: { ...base.selection, scenarioId: 'custom' } };
    return withPanel(state, async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#custom-workload');
      await p.page.fill('#custom-sql', 'SELECT 1');
      await fill(p.page, '#custom-database', 'master');
      await fill(p.page, '#custom-iterations', '25');
      await fill(p.page, '#custom-threads', '4');
      await p.page.waitForSelector('#btn-run-custom:not([disabled])', { timeout: 5000 }).catch(async () => {
        throw new Error(`Run is disabled: ${await p.page.textContent('#custom-status')}`);
      });
      await p.page.click('#btn-run-custom');
      await waitForPosted(p, 'customRun');
      await p.page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      const error: UiError = { message: "Invalid object name 'dbo.missing' (Msg 208).", fix: 'Correct the T-SQL and run again.' };
      await p.send({ type: 'state', payload: { state: { ...state, lastError: error } } });
      await p.page.waitForSelector('#custom-error');
      assert.match((await p.page.textContent('#custom-error')) ?? '', /Msg 208/);
      assert.equal(await p.page.$('#error-banner'), null, 'not at the top of the page');
      await p.page.waitForFunction(() => (globalThis as unknown as Doc).document.activeElement?.id === 'custom-error');
      assert.ok(await inView(p.page, '#custom-error'), 'brought into view');
    });
  });
});
