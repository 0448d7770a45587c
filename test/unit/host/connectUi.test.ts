// A failed connect in the panel's words (src/host/connectUi.ts) and in the CLI's (src/db/connectErrors.ts): both carry
// SQL Server's error number; the panel names its own fields and checkbox, the CLI its connection string.
import assert from 'node:assert/strict';
import { explainConnectFailure, withMsgNumber, type WireFacts } from '../../../src/db/connectErrors';
import { DbError } from '../../../src/db/dbError';
import { panelConnectError } from '../../../src/host/connectUi';

const SQL = { server: 'db1', port: 1433, user: 'sa', authentication: 'sql' };

function failed(message: string, number?: number): DbError {
  const e = new DbError(`${message}\n  (the CLI's advice)`, number, 'ELOGIN', undefined, undefined, [], undefined, 'connection');
  e.connectFailure = { message, number };
  return e;
}

describe('connect failures in the panel and the CLI', () => {
  it("the server's number beside its words, once", () => {
    assert.equal(withMsgNumber("Login failed for user 'sa'.", 18456), "Login failed for user 'sa' (Msg 18456).");
    assert.equal(withMsgNumber('Login failed (Msg 18456).', 18456), 'Login failed (Msg 18456).');
    assert.equal(withMsgNumber('certificate has expired', undefined), 'certificate has expired');
  });

  it('a refused login: the number, what was tried, and the Login and Password fields (no CLI words)', () => {
    const ui = panelConnectError(failed("Login failed for user 'sa'.", 18456), SQL)!;
    assert.match(ui.message, /^Login failed for user 'sa' \(Msg 18456\)\. The server at db1,1433 answered/);
    assert.match(ui.fix!, /Check the Login and Password fields/);
    assert.doesNotMatch(`${ui.message} ${ui.fix}`, /SPINLAB_PASSWORD|connection string/);
    assert.equal(ui.control, 'password');
    assert.equal(ui.action, 'connect');
  });

  it('a refused login as tedious reports it (no number): still Msg 18456, which "Login failed for user" is', () => {
    assert.match(panelConnectError(failed("Login failed for user 'sa'."), SQL)!.message, /^Login failed for user 'sa' \(Msg 18456\)\./);
  });

  it('an untrusted certificate: tick the checkbox in the panel; TrustServerCertificate=true in the CLI', () => {
    const raw = 'Failed to connect to db1:1433 - self-signed certificate';
    const ui = panelConnectError(failed(raw), SQL)!;
    assert.match(ui.fix!, /^Tick "Trust server certificate"/);
    assert.doesNotMatch(`${ui.message} ${ui.fix}`, /TrustServerCertificate=true/);
    assert.equal(ui.control, 'trustServerCertificate');
    assert.match(explainConnectFailure(raw, undefined, SQL)!, /add TrustServerCertificate=true to the connection string/);
  });

  it('nothing there: the Server and Port fields; the CLI keeps its words with the number', () => {
    const ui = panelConnectError(failed('Failed to connect to db1:1433 - connect ECONNREFUSED'), SQL)!;
    assert.match(ui.fix!, /Check the Server and Port fields/);
    assert.equal(ui.control, 'server');
    assert.match(
      explainConnectFailure("Login failed for user 'sa'.", 18456, SQL)!,
      /^Login failed for user 'sa' \(Msg 18456\)\.\n.*SPINLAB_PASSWORD/,
    );
  });

  it('not a first-connection failure: null (the generic words apply)', () => {
    assert.equal(panelConnectError(new Error('boom'), SQL), null);
    assert.equal(panelConnectError(new DbError('Invalid object name', 208, undefined, 1, 16, []), SQL), null);
  });

  it('Encrypt=strict and an untrusted certificate: the checkbox is ignored, so neither the panel nor the CLI offers it as the fix', () => {
    const raw = 'Failed to connect to db1:1433 - self-signed certificate';
    const strict = { ...SQL, encrypt: 'strict' };
    const ui = panelConnectError(failed(raw), strict)!;
    assert.match(ui.message, /with Encrypt strict, "Trust server certificate" is ignored/);
    assert.match(ui.fix!, /^Install the CA/);
    assert.notEqual(ui.control, 'trustServerCertificate');
    const cli = explainConnectFailure(raw, undefined, strict)!;
    assert.match(cli, /TrustServerCertificate is ignored/);
    assert.doesNotMatch(cli, /add TrustServerCertificate=true/);
  });

  it('something that is not SQL Server answered: said in both, with the port to check, never "could not be reached"', () => {
    const wire: WireFacts = { tcpConnected: true, watched: true, replied: true, notTds: 'an HTTP server: "HTTP/1.1 400 Bad Request"' };
    const e = failed("Connection lost - the server's first reply is not TDS");
    e.connectFailure!.wire = wire;
    const ui = panelConnectError(e, SQL)!;
    assert.match(ui.message, /answered, but it is not SQL Server: its first reply \(an HTTP server/);
    assert.match(ui.fix!, /^Check the port/);
    assert.equal(ui.control, 'server');
    const cli = explainConnectFailure(e.connectFailure!.message, undefined, SQL, wire)!;
    assert.match(cli, /it is not SQL Server/);
    assert.doesNotMatch(cli, /could not be reached/);
  });

  it('a SQL Server that answered and then timed out in the login: not "could not be reached"', () => {
    const wire: WireFacts = { tcpConnected: true, watched: true, replied: true, notTds: null };
    const cli = explainConnectFailure('Failed to connect to db1:1433 in 15000ms', undefined, SQL, wire)!;
    assert.match(cli, /answered as SQL Server but did not finish the login within 15 s/);
    assert.doesNotMatch(cli, /could not be reached/);
    const e = failed('Failed to connect to db1:1433 in 15000ms');
    e.connectFailure!.wire = wire;
    assert.match(panelConnectError(e, SQL)!.message, /did not finish the login/);
  });
});
