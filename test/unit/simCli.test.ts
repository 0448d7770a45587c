// The simulator's own command line: a port another process holds is refused with what to do, not a bare EADDRINUSE.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { runSimCommand } from '../../tools/sim/simulator';

describe('spinlab sim, command line', () => {
  it('a port in use: exit 5 (a resource of this machine), naming the port and the way out (--port 0)', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      let out = '';
      assert.equal(
        await runSimCommand(['--port', String(port), '--password', 'Sim-Pw-1'], (t) => {
          out += t;
        }),
        5,
      );
      assert.match(out, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use .*--port 0 for any free one`));
      assert.doesNotMatch(out, /EADDRINUSE/);
    } finally {
      holder.close();
    }
  });
});
