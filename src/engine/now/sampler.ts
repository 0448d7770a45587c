// The Now view's sampler: one read-only batch (sql/now/sample.sql: cumulative spinlocks, waits, latches and scheduler
// CPU; nothing created, not even in tempdb) per step, subtracted here on the client by the experiments' own delta code
// (computeTick), and the delta handed to the Now history. A restarted server or cleared counters start it again.
import type { ResultSets } from '../../db/rows';
import type { RawSample } from '../../shared/types';
import type { NowHistory } from '../../shared/nowHistory';
import { computeTick } from '../deltas';
import { parseSample } from '../sampleRows';
import { explain } from '../errors';

export const NOW_SQL = 'now/sample';

/** What the sampler needs of a session: the engine's DbSession, or a test's recorder. */
export interface NowReader {
  runFile(id: string, params?: Record<string, unknown>, signal?: AbortSignal): Promise<ResultSets>;
}

export type NowStep = { kind: 'baseline' } | { kind: 'delta' } | { kind: 'restart'; message: string } | { kind: 'skip'; message: string };

/** The batch's sets in the layout of the experiments' sample (shared/types RawSample), the sets it leaves out empty. */
export function parseNowSample(sets: ResultSets, clientTime: number): RawSample {
  const [clock = [], spin = [], waits = [], latches = [], scheds = []] = sets;
  return parseSample([clock, spin, waits, latches, [], [], [], scheds], clientTime);
}

export class NowSampler {
  private prev: RawSample | null = null;

  constructor(private readonly history: NowHistory) {}

  /** Forgets the baseline (a new session); the next step is a baseline again. */
  reset(): void {
    this.prev = null;
  }

  /**
   * One read; `now` is this machine's clock (epoch ms) at its answer. A missing permission comes back as the
   * engine's explained error, naming the GRANT.
   */
  async step(
    db: NowReader,
    ctx: { login: string; majorVersion: number | null; now: () => number },
    signal?: AbortSignal,
  ): Promise<NowStep> {
    let cur: RawSample;
    try {
      const sets = await db.runFile(NOW_SQL, {}, signal);
      cur = parseNowSample(sets, ctx.now());
    } catch (err) {
      throw explain(err, 'Reading the server for the Now view', { login: ctx.login, majorVersion: ctx.majorVersion });
    }
    const prev = this.prev;
    this.prev = cur;
    if (!prev) return { kind: 'baseline' };
    // The lab database's counters are not read here: computeTick says they are missing, which the Now view ignores.
    const r = computeTick(prev, cur, { labDatabase: '_Total', progressTables: [], runStartMsTicks: prev.msTicks });
    if (r.kind === 'restart') {
      this.history.clear();
      return { kind: 'restart', message: r.message };
    }
    if (r.kind === 'skip') return r;
    this.history.add(cur.clientTime, r.tick);
    return { kind: 'delta' };
  }
}
