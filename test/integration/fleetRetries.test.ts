// A dead server in a fleet watch: its error is said once in full, then each retry is one short line ("still cannot
// watch ... attempt N; starting again in X s"), not the same three lines again on every retry.
import assert from 'node:assert/strict';
import { ServerWatch } from '../../src/cli/fleetWatch';
import { ServerMetrics } from '../../src/engine/metrics/watchMetrics';
import { freePort } from '../helpers/fleet';
import { tmp } from '../helpers/common';

describe('spinlab watch --servers: a server that stays down', function () {
  this.timeout(30_000);

  it('says its error once, then one short line per retry', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const server = {
      name: 'dead1',
      target: {
        server: '127.0.0.1',
        port,
        user: 'sa',
        password: 'x',
        authentication: 'sql' as const,
        encrypt: false,
        trustServerCertificate: true,
        connectTimeoutMs: 2000,
      },
      intervalMs: 1000,
    };
    const w = new ServerWatch(server, new ServerMetrics({ name: 'dead1', address: '127.0.0.1', port }, 1000), {
      outRoot: tmp('fleet-dead'),
      costBudgetMsPerSec: 10,
      topRequests: 10,
      textChars: 100,
      log: (l) => lines.push(l),
    });
    const ac = new AbortController();
    // Attempts at 0 s, 1 s and 3 s (back-off 1 s, then 2 s): three failures before the abort.
    const stop = setTimeout(() => ac.abort(), 3800);
    await w.run(ac.signal);
    clearTimeout(stop);
    const text = lines.join('\n');
    assert.equal(w.health().starts, 3, text);
    assert.equal(text.split('ECONNREFUSED').length - 1, 1, `the error in full once:\n${text}`);
    assert.equal(text.split('could not be reached').length - 1, 1, `its fix once:\n${text}`);
    assert.equal(text.split('connecting to').length - 1, 1, `"connecting to" once:\n${text}`);
    assert.match(text, /\[dead1\] still cannot watch \(the same error, attempt 2\); starting again in 2 s/);
    assert.match(text, /\[dead1\] still cannot watch \(the same error, attempt 3\); starting again in 4 s/);
    assert.match(w.health().lastError ?? '', /ECONNREFUSED/, 'the health check keeps the whole error');
  });
});
