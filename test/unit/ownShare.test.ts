// The workload's own share of the server's work: the tick's own activity from two readings, the run's share over
// its ticks, when others count as busy, and the words every view prints (CLI table, notebook, verdict caveats).
import assert from 'node:assert/strict';
import { othersBusy, othersWarning, ownDelta, ownShare, shareText, type OwnReading } from '../../src/shared/ownShare';
import { diagnoseWritelog } from '../../src/shared/writelogDiagnosis';
import { compareCells, cellsOf } from '../../src/shared/repeats';
import * as b from '../helpers/builders';

const reading = (cpuMs: number, waits: Record<string, number>, otherRequests = 0): OwnReading => ({ cpuMs, waits, otherRequests });

/** A one-second tick with the server's CPU and waits, and the workload's own part of them. */
function tick(serverCpu: number, serverWait: number, ownCpu: number, ownWait: number, others: number) {
  return {
    intervalMs: 1000,
    cpuMs: serverCpu,
    waits: { WRITELOG: { waitMs: serverWait }, SLEEP_TASK: { waitMs: 5000 } },
    own: { cpuMs: ownCpu, waitMs: ownWait, otherRequests: others },
  };
}

describe("the workload's own share of the server's work", () => {
  it('a tick: CPU and non-benign waits moved since the previous reading; other requests as read now', () => {
    const d = ownDelta(
      reading(100, { WRITELOG: 40, SLEEP_TASK: 10 }, 3),
      reading(350, { WRITELOG: 90, SLEEP_TASK: 500, PAGELATCH_EX: 7 }, 5),
    );
    assert.deepEqual(d, { cpuMs: 250, waitMs: 57, otherRequests: 5 });
    assert.equal(ownDelta(null, reading(1, {})), null, 'no share without both readings');
  });

  it('a run: its sessions over the server, benign waits left out, clamped at the whole', () => {
    const s = ownShare([tick(1000, 200, 130, 0, 8), tick(1000, 200, 130, 20, 8)])!;
    assert.equal(s.cpu, 0.13);
    assert.equal(s.waits, 0.05);
    assert.equal(s.otherRequests, 8);
    assert.equal(Math.round(s.othersCpuMsPerSec), 868, '(2000 - 260 - 2 ms of rounding a tick) over 2 s');
    assert.deepEqual([s.ticks, s.of], [2, 2]);
    assert.equal(ownShare([tick(100, 10, 130, 12, 0)])!.cpu, 1, 'a reading a little over the whole is the whole');
    assert.equal(ownShare([{ intervalMs: 1000, cpuMs: 100, waits: {} }]), null, 'no tick carries the sessions: unknown, not 0');
    assert.equal(ownShare([tick(0.5, 0, 0, 0, 0)])!.cpu, null, 'a server that used no CPU has no share to give');
  });

  it('others busy: a fifth of the CPU and a twentieth of a CPU per second, or a fifth of the waits with requests running', () => {
    assert.equal(othersBusy(ownShare([tick(1000, 0, 130, 0, 8)])), true, 'a read-only query beside 8 writers');
    assert.equal(othersBusy(ownShare([tick(170, 0, 150, 0, 0)])), false, "an idle server's housekeeping (20 ms/s) is not others");
    assert.equal(othersBusy(ownShare([tick(1000, 0, 950, 0, 0)])), false, 'the workload did nearly all of it');
    assert.equal(othersBusy(ownShare([tick(1000, 1000, 950, 100, 4)])), true, "others' waits while their requests ran");
    assert.equal(othersBusy(null), false);
  });

  it("Spinlock Lab's own monitor is not others: its CPU leaves the server's before the share is taken", () => {
    // A short run on an idle server: the first tick's monitor batch (its #temp tables compiled) is most of the CPU.
    const short = { intervalMs: 200, cpuMs: 59, waits: {}, own: { cpuMs: 2, waitMs: 0, otherRequests: 0 }, monitor: { cpuMs: 53 } };
    const s = ownShare([short])!;
    assert.equal(othersBusy(s), false, JSON.stringify(s));
    assert.equal(othersWarning(s), null);
    assert.equal(Math.round(s.othersCpuMsPerSec), 10, '(6 - 2 own - 2 of rounding) over 0.2 s');
    assert.equal(s.cpu, 2 / 6);
    // Beside busy writers it still says so.
    assert.equal(othersBusy(ownShare([{ ...tick(1000, 0, 130, 0, 8), monitor: { cpuMs: 20 } }])), true);
    // A tick without the monitor's figure (a full tick, a reconnect) counts it as before.
    assert.equal(ownShare([tick(170, 0, 150, 0, 0)])!.cpu, 150 / 170);
  });

  it('a run of a few milliseconds (--rows 1): a millisecond of rounding is not others, nor a share', () => {
    // Whole-millisecond CPU figures read at each end: 55 ms on the schedulers, 54 of them the monitor's, 0 own.
    const tiny = { intervalMs: 9, cpuMs: 55, waits: {}, own: { cpuMs: 0, waitMs: 0, otherRequests: 0 }, monitor: { cpuMs: 54 } };
    const s = ownShare([tiny])!;
    assert.equal(othersBusy(s), false, JSON.stringify(s));
    assert.equal(s.cpu, null, 'nothing to share but rounding');
  });

  it('the words: the share beside a figure, and the warning a run carries', () => {
    const busy = ownShare([tick(1000, 200, 130, 10, 8)]);
    assert.equal(shareText(busy), "13% of the server's CPU, 5% of its waits");
    assert.match(othersWarning(busy)!, /8\.0 other requests running on average.*13% of the server's CPU.*server-wide/);
    assert.equal(othersWarning(ownShare([tick(1000, 200, 990, 195, 0)])), null);
    assert.equal(shareText(null), 'share unknown');
  });

  it('the WRITELOG diagnosis says its signs are server-wide when others were busy', () => {
    const base = {
      totals: { elapsedMs: 1000, rows: 100, transactions: 100, waits: {}, logFlushes: 10, logBytesFlushed: 1000 },
      timeline: [],
      majorVersion: 16,
    };
    assert.doesNotMatch(diagnoseWritelog(base).summary, /Server-wide/);
    const d = diagnoseWritelog({ ...base, share: ownShare([tick(1000, 200, 130, 10, 8)]) });
    assert.match(d.summary, /^Server-wide: other sessions did a meaningful part.*13% of the server's CPU/);
  });

  it("an A/B comparison says so when either side's runs ran beside busy others", () => {
    const busy = ownShare([tick(1000, 200, 130, 10, 8)]);
    const run = (arm: string, seed: number, share: typeof busy) => ({
      ...b.runRecord(seed, 4, { seed }),
      arm: { id: arm, label: arm === 'a' ? 'A' : 'B' },
      share,
    });
    const quiet = cellsOf([run('a', 1, null), run('b', 2, null)]);
    assert.equal(
      compareCells(quiet[0], quiet[1]).summary.some((s) => /Other sessions/.test(s)),
      false,
    );
    const noisy = cellsOf([run('a', 1, null), run('b', 2, busy)]);
    assert.match(compareCells(noisy[0], noisy[1]).summary.at(-1)!, /Other sessions did a meaningful part.*runs of B/);
  });
});
