// Per-call latency of the client-loop workload, recorded in an HDR histogram (constant memory, 3 significant digits,
// any range) and summarised in microseconds. Recorders merge exactly, so per-session recorders can be combined, and
// a summary can carry its histogram (compressed base64) to be merged again later.
// The pure-JS classes are imported directly: the package index also loads its WebAssembly build, which we never use.
import Int32Histogram from 'hdr-histogram-js/dist/Int32Histogram';
import { JsHistogram } from 'hdr-histogram-js/dist/JsHistogram';
import { decompress } from 'hdr-histogram-js/dist/JsHistogram.encoding';
import type { LatencySummary } from '../shared/experiment';

/** 1 µs to 1 hour: a call slower than that is recorded as 1 hour (clamped) rather than throwing mid-run. */
const LOWEST_US = 1;
const HIGHEST_US = 3_600_000_000;

/** A recorder as a worker thread hands it over: the histogram plus what the encoding does not keep exactly. */
export interface RecorderState {
  histogram: string;
  maxUs: number;
  clamped: number;
}

function newHistogram(): JsHistogram {
  return new Int32Histogram(LOWEST_US, HIGHEST_US, 3);
}

export class LatencyRecorder {
  private h: JsHistogram = newHistogram();
  private clamped = 0;
  /** Exact maximum: the histogram's own is exact only until histograms are added together. */
  private maxSeen = 0;

  /** Records one call's latency in microseconds (fractions rounded; below 1 µs counts as 1, above 1 h as 1 h). */
  record(microseconds: number): void {
    if (!Number.isFinite(microseconds) || microseconds < 0) return; // a clock glitch is not a latency
    let v = Math.max(LOWEST_US, Math.round(microseconds));
    if (v > HIGHEST_US) {
      v = HIGHEST_US;
      this.clamped++;
    }
    this.h.recordValue(v);
    if (v > this.maxSeen) this.maxSeen = v;
  }

  /** Records the time since a process.hrtime.bigint() taken when the call started. */
  recordSince(startNs: bigint): void {
    this.record(Number(process.hrtime.bigint() - startNs) / 1000);
  }

  get count(): number {
    return this.h.totalCount;
  }

  /** Calls that took longer than the histogram's range (recorded as its maximum). */
  get clampedCount(): number {
    return this.clamped;
  }

  /** Adds another recorder's (or an encoded histogram's) values to this one. */
  merge(other: LatencyRecorder | string): this {
    if (typeof other === 'string') {
      const h = decode(other);
      this.h.add(h);
      if (h.totalCount) this.maxSeen = Math.max(this.maxSeen, h.maxValue);
    } else {
      this.h.add(other.h);
      this.clamped += other.clamped;
      this.maxSeen = Math.max(this.maxSeen, other.maxSeen);
    }
    return this;
  }

  /** This recorder for another thread (structured-clone safe); mergeState there adds it exactly. */
  state(): RecorderState {
    return { histogram: this.encode(), maxUs: this.maxSeen, clamped: this.clamped };
  }

  mergeState(s: RecorderState): this {
    this.h.add(decode(s.histogram));
    this.clamped += s.clamped;
    this.maxSeen = Math.max(this.maxSeen, s.maxUs);
    return this;
  }

  reset(): void {
    this.h.reset();
    this.clamped = 0;
    this.maxSeen = 0;
  }

  /** The histogram as compressed base64 (HdrHistogram V2 encoding, readable by other HDR implementations). */
  encode(): string {
    return this.h.encodeIntoCompressedBase64();
  }

  static decode(encoded: string): LatencyRecorder {
    return new LatencyRecorder().merge(encoded);
  }

  /**
   * Percentiles in µs, or null without a single call (a latency of 0 would read as a fast run); with keepHistogram
   * the encoded histogram rides along so summaries can be merged later.
   */
  summary(options: { keepHistogram?: boolean } = {}): LatencySummary {
    const h = this.h;
    const n = h.totalCount;
    const max = this.maxSeen;
    // A percentile is reported as the top of its bucket, which can exceed the largest value actually seen.
    const at = (p: number) => (n ? Math.min(h.getValueAtPercentile(p), max) : null);
    const s: LatencySummary = {
      count: n,
      meanUs: n ? h.mean : null,
      p50Us: at(50),
      p90Us: at(90),
      p99Us: at(99),
      p999Us: at(99.9),
      maxUs: n ? max : null,
    };
    if (options.keepHistogram) s.histogram = this.encode();
    return s;
  }
}

function decode(encoded: string): JsHistogram {
  try {
    return JsHistogram.decode(decompress(new Uint8Array(Buffer.from(encoded, 'base64'))), 32, HIGHEST_US);
  } catch (e) {
    throw new Error(`not an encoded latency histogram: ${(e as Error).message}`, { cause: e });
  }
}

/** Merges summaries that carry their histograms; null if any lacks one (percentiles cannot be averaged). */
export function mergeSummaries(summaries: readonly LatencySummary[]): LatencySummary | null {
  const r = new LatencyRecorder();
  for (const s of summaries) {
    if (!s.histogram) return null;
    r.merge(s.histogram);
  }
  return r.summary({ keepHistogram: true });
}
