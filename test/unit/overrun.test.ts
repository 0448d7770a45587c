// A run that overruns its plan says so and why: a thousand sessions for three seconds measured a 17.3 s window and took
// 76 s against about 4 s planned, in silence. The notes (engine/overrun.ts) name the measured window against the time
// asked and why it grew (the sampler answered late, and with THREADPOOL waits, the server ran short of workers; or the
// calls ran on past the end: a slow ramp), and the whole run against its plan, part by part (opening the sessions, the
// warm-up, the measured phase, closing). A run on plan says nothing; the experiment's own line says where the time went.
import assert from 'node:assert/strict';
import { overrunNotes, type RunTiming } from '../../src/engine/overrun';
import { planOverrunLine } from '../../src/cli/progress';
import { planTime } from '../../src/shared/planTime';

const onPlan: RunTiming = {
  threads: 8,
  durationMs: 3000,
  warmupMs: 1000,
  intervalMs: 1000,
  openMs: 150,
  warmupTookMs: 1010,
  measureTookMs: 3050,
  closeMs: 300,
  totalMs: 4600,
  windowMs: 3020,
  maxTickMs: 1010,
  threadpoolWaitMs: 0,
};

describe('a run that overruns its plan', () => {
  it('on plan: nothing to say', () => {
    assert.deepEqual(overrunNotes(onPlan), []);
  });

  it("a thousand sessions: the window against the time asked, why (late samples, THREADPOOL), and the run's parts", () => {
    const notes = overrunNotes({
      ...onPlan,
      threads: 1000,
      openMs: 21_000,
      warmupTookMs: 1_200,
      measureTookMs: 19_500,
      closeMs: 34_000,
      totalMs: 76_000,
      windowMs: 17_300,
      maxTickMs: 14_200,
      threadpoolWaitMs: 9_400,
    });
    assert.equal(notes.length, 2, notes.join('\n'));
    assert.match(notes[0], /^the measured window was 17\.3 s on the server's clock, not the 3 s asked/);
    assert.match(notes[0], /the server answered the sampler up to 14\.2 s late \(one sample every 1 s was asked\)/);
    assert.match(notes[0], /THREADPOOL/);
    assert.match(notes[0], /1000 sessions/);
    assert.match(notes[1], /^this run took 76 s against the 4 s planned \(1 s warm-up \+ 3 s measured\)/);
    assert.match(notes[1], /opening the 1000 sessions 21 s/);
    assert.match(notes[1], /the measured phase 19\.5 s \(its calls ran 16\.5 s past the measured time\)/);
    assert.match(notes[1], /closing 34 s/);
  });

  it('calls that run on past the measured time, with samples on time: a slow ramp', () => {
    const [note] = overrunNotes({ ...onPlan, threads: 400, measureTookMs: 9_000, windowMs: 8_800, maxTickMs: 1_100, totalMs: 10_500 });
    assert.match(note, /the sessions' calls ran on 6 s past the measured time/);
    assert.match(note, /400 sessions do not all start at once/);
  });

  it('a row-count run has no time planned: only the opening is said, when it is long', () => {
    const notes = overrunNotes({ ...onPlan, durationMs: null, openMs: 12_000, totalMs: 40_000, windowMs: 25_000 });
    assert.equal(notes.length, 1, notes.join('\n'));
    assert.match(notes[0], /opening the 8 sessions took 12 s/);
  });

  it("the experiment's line: the time taken against the plan's, with the time the plan leaves out", () => {
    assert.equal(planOverrunLine(4, 5_000, 4_600), null, 'on plan');
    const line = planOverrunLine(4, 80_000, 76_000);
    assert.match(
      line ?? '',
      /^This experiment took 80 s, not the about 4 s planned: its runs took 76 s \(the warnings above say where the time went\); deploys and setup 4 s\.$/,
    );
  });
});

describe('the plan of a run with many sessions', () => {
  it('says that opening them is time the plan leaves out, with how many', () => {
    const t = planTime([{ threads: [1000] }], { durationMs: 3000, rows: null, warmupMs: 1000 }, 1);
    assert.match(t.text, /about 4 s \(3 s measured \+ 1 s warm-up each, plus deploys, plus opening up to 1,000 sessions per run\)/);
    assert.doesNotMatch(planTime([{ threads: [8] }], { durationMs: 3000, rows: null, warmupMs: 1000 }, 1).text, /opening/);
  });
});
