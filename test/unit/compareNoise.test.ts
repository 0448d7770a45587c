// Two runs compared without an interval are not a verdict: the same settings twice is the run-to-run noise, and
// between single runs of different settings only a change no noise makes (2x) is called better or worse.
import assert from 'node:assert/strict';
import { changeMeaningOf, pairNoise } from '../../src/shared/compareNoise';

const run = (key: string, threads: number, armId = 'main', experimentKey = 'e1') => ({ key, experimentKey, armId, threads });

describe('the noise note of a two-run comparison', () => {
  it('two repetitions of the same settings: no colour, and the note says this is the noise', () => {
    const n = pairNoise(run('e1#0', 8), run('e1#1', 8));
    assert.equal(n.sameSettings, true);
    assert.match(n.note, /^Same settings/);
    assert.match(n.note, /run-to-run noise/);
    assert.equal(changeMeaningOf({ key: 'rowsPerSec', changePct: -21, direction: 'higher-better' }, n), '');
    assert.equal(changeMeaningOf({ key: 'cpuMsPerRow', changePct: 400, direction: 'lower-better' }, n), '');
  });

  it('single runs of different settings: a 21% drop is within the noise, a 4x rise is worse', () => {
    const n = pairNoise(run('e1#0', 1), run('e1#1', 8));
    assert.equal(n.sameSettings, false);
    assert.match(n.note, /no interval/);
    assert.equal(changeMeaningOf({ key: 'rowsPerSec', changePct: -21, direction: 'higher-better' }, n), '');
    assert.equal(changeMeaningOf({ key: 'cpuMsPerRow', changePct: 300, direction: 'lower-better' }, n), 'worse');
    assert.equal(changeMeaningOf({ key: 'rowsPerSec', changePct: 150, direction: 'higher-better' }, n), 'better');
    assert.equal(changeMeaningOf({ key: 'threads', changePct: 700, direction: 'higher-better' }, n), '', "the sweep's knob is no outcome");
  });

  it('other arms or other experiments are other settings', () => {
    assert.equal(pairNoise(run('e1#0', 8, 'a'), run('e1#1', 8, 'b')).sameSettings, false);
    assert.equal(pairNoise(run('e1#0', 8), run('e2#0', 8, 'main', 'e2')).sameSettings, false);
  });
});
