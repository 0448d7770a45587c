// Microsoft's SQL extension's saved connections in the panel's connection form (Chromium, real CSP): listed beside ours
// with server, database and login, never a password field of their own; Connect on one (by keyboard) asks the host
// with its id only; a SQL extension that keeps its passwords says the password is asked once; without the SQL
// extension the form is as it was. axe finds nothing serious in the list.
import assert from 'node:assert/strict';
import type { PanelState } from '../../src/shared/protocol';
import * as b from '../helpers/builders';
import { usePanels, waitForPosted } from './harness';
import { axeFindings, describeFindings } from './axe';

function withSqlExtension(sharesCredentials: boolean | null): PanelState {
  return {
    ...b.disconnectedState(),
    sqlExtension: {
      sharesCredentials,
      connections: [
        { id: 'mssql-6f96', label: 'Sales (dev)', server: 'sql01,1500', database: 'Sales', authentication: 'sql', user: 'spin' },
        { id: 'mssql-a1b2', label: 'Azure lab', server: 'lab.database.windows.net', database: null, authentication: 'entra', user: '' },
      ],
    },
  };
}

describe("Microsoft's SQL extension's connections in the connection form, in Chromium", () => {
  const { withPanel } = usePanels();

  it('lists them; Enter on one sends its id to the host, and nothing else', () =>
    withPanel(withSqlExtension(true), async (p) => {
      await p.page.waitForSelector('#sql-extension-connections');
      const text = (await p.page.textContent('#sql-extension-connections')) ?? '';
      assert.match(text, /In Microsoft's SQL extension/);
      assert.match(text, /Sales \(dev\)\s*sql01,1500 \(Sales\) · SQL login spin/);
      assert.match(text, /Azure lab\s*lab\.database\.windows\.net · Microsoft Entra ID/);
      assert.doesNotMatch(text, /asked\s+once/, 'this SQL extension shares its credentials');
      const since = (await p.posted()).length;
      await p.page.focus('[data-sql-connection="mssql-6f96"]');
      await p.page.keyboard.press('Enter');
      const sent = await waitForPosted(p, 'sqlExtensionConnect', since);
      assert.deepEqual(sent.payload, { id: 'mssql-6f96' });
      const findings = (await axeFindings(p.page, '#sql-extension-connections')).filter(
        (f) => f.impact === 'serious' || f.impact === 'critical',
      );
      assert.deepEqual(findings, [], describeFindings(findings));
    }));

  it('a SQL extension that keeps its passwords: the list says the password is asked once', () =>
    withPanel(withSqlExtension(false), async (p) => {
      await p.page.waitForSelector('#sql-extension-connections');
      assert.match((await p.page.textContent('#sql-extension-connections')) ?? '', /asked\s+once here/);
    }));

  it('without the SQL extension the form has no such list', () =>
    withPanel(b.disconnectedState(), async (p) => {
      await p.page.waitForSelector('#profiles');
      assert.equal(await p.page.$('#sql-extension-connections'), null);
    }));
});
