// A simulated instance with one signed-in session, and its batches run straight through the executor (no wire), for
// the executor's unit tests.
import { ManualClock } from '../../tools/sim/model/clock';
import { executeBatch } from '../../tools/sim/model/exec/batch';
import { type ModelOptions, SimModel } from '../../tools/sim/model/instance';
import type { SessionContext, Value } from '../../tools/sim/tds/contract';

/** `login` (default sa) signs in; `logins` are the model's other logins. */
export function execSetup(opts: Pick<ModelOptions, 'version' | 'logins'> & { login?: string } = {}) {
  const { login = 'sa', ...modelOpts } = opts;
  const model = new SimModel({ password: 'pw', clock: new ManualClock(), seed: 1, ...modelOpts });
  const session: SessionContext = {
    spid: 51,
    login,
    appName: 't',
    hostName: 'h',
    encrypted: false,
    database: 'master',
    state: new Map(),
  };
  model.sessionStarted(51, login);
  const run = (text: string, params = new Map<string, Value>(), paramDefs = '', signal = new AbortController().signal) =>
    executeBatch({ model, session, params, paramDefs, signal, text });
  return { model, session, run };
}
