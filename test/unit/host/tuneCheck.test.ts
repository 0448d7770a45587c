// Start's checks for "Find the best settings", made before the confirmation (host/features/tune/tuneCheck.ts): each
// problem by the control it concerns, in the panel's words (its checkbox and field labels, never a command-line flag),
// and the server asked only once the form itself is right.
import assert from 'node:assert/strict';
import { checkTune } from '../../../src/host/features/tune/tuneCheck';
import { checkBudget, checkQuiet } from '../../../src/engine/tune/preflight';
import type { TuneRefusal } from '../../../src/engine/tune/refusal';
import type { TuneStartIntent } from '../../../src/shared/tuneMessages';
import { facts } from './fixtures';

const intent = (over: Partial<TuneStartIntent> = {}): TuneStartIntent => ({
  workload: { kind: 'scenario', scenarioId: 'disk-insert', parameters: { batch_size: 1 } },
  mode: 'server-loop',
  objective: 'throughput',
  budget: '10m',
  sessions: '',
  affinity: [],
  batchSizes: '',
  allowForced: false,
  sharedServer: false,
  ...over,
});

/** The refusal a check throws. */
function refusal(f: () => void): TuneRefusal {
  try {
    f();
  } catch (e) {
    return e as TuneRefusal;
  }
  throw new Error('no refusal');
}

describe('Find the best settings: the checks before the confirmation', () => {
  it('a busy server is said beside the shared-server checkbox, naming the checkbox, not --shared-server', async () => {
    const busy = refusal(() => checkQuiet({ sessions: 3, batchRequestsPerSec: 120 }, false));
    const { problems, req } = await checkTune(intent(), facts(), async () => [busy]);
    assert.equal(req, null, 'refused: nothing to confirm');
    assert.equal(problems.length, 1);
    assert.equal(problems[0].field, 'sharedServer');
    assert.match(problems[0].message, /3 running a request, 120 batch requests\/s/);
    assert.match(problems[0].message, /tick “Other work may be running on this server”/);
    assert.doesNotMatch(problems[0].message, /--/);
  });

  it('a budget too small for the space is said beside Budget, in the form’s words', async () => {
    const small = refusal(() => checkBudget(new Array(8).fill(null), 120_000, 5000, false));
    const { problems } = await checkTune(intent({ budget: '2m' }), facts(), async () => [small]);
    assert.equal(problems[0].field, 'budget');
    assert.match(problems[0].message, /^2m is below the \d+m this search needs: its 8 configurations screened once/);
    assert.match(problems[0].message, /narrow the search \(Sessions, CPU affinity candidates, Rows per transaction\)/);
    assert.doesNotMatch(problems[0].message, /--/);
  });

  it('p99 with the server loop is said beside Objective, naming the Load setting', async () => {
    let asked = 0;
    const { problems } = await checkTune(intent({ objective: 'p99' }), facts(), async () => (asked++, []));
    assert.deepEqual(
      problems.map((p) => p.field),
      ['objective'],
    );
    assert.match(problems[0].message, /set Load to “client loop” in the Run settings/);
    assert.doesNotMatch(problems[0].message, /--mode/);
    assert.equal(asked, 0, 'the server is not asked while the form is wrong');
  });

  it('wrong fields come back by field, every one, and the server is not asked', async () => {
    let asked = 0;
    const { problems } = await checkTune(
      intent({ budget: '30s', affinity: ['numa:9'], objective: 'spins-per-row:', trial: 'x' }),
      facts(),
      async () => (asked++, []),
    );
    assert.deepEqual(problems.map((p) => p.field).sort(), ['affinity', 'budget', 'spinlock', 'trial']);
    assert.match(problems.find((p) => p.field === 'budget')!.message, /^A budget of 30s is out of range/);
    assert.equal(asked, 0);
  });

  it('nothing wrong: no problems, and the request to confirm', async () => {
    const { problems, req } = await checkTune(intent(), facts(), async () => []);
    assert.deepEqual(problems, []);
    assert.equal(req?.scenarioId, 'disk-insert');
  });
});
