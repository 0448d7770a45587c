// A simulated instance with one signed-in session, and its batches run straight through the executor (no wire), for
// the executor's unit tests.
import { ManualClock } from '../../tools/sim/model/clock';
import { executeBatch } from '../../tools/sim/model/exec/batch';
import { SimModel } from '../../tools/sim/model/instance';
import type { SessionContext, Value } from '../../tools/sim/tds/contract';

export function execSetup(opts: { version?: number } = {}) {
  const model = new SimModel({ password: 'pw', clock: new ManualClock(), seed: 1, ...opts });
  const session: SessionContext = {
    spid: 51,
    login: 'sa',
    appName: 't',
    hostName: 'h',
    encrypted: false,
    database: 'master',
    state: new Map(),
  };
  model.sessionStarted(51, 'sa');
  const run = (text: string, params = new Map<string, Value>(), paramDefs = '', signal = new AbortController().signal) =>
    executeBatch({ model, session, params, paramDefs, signal, text });
  return { model, session, run };
}
