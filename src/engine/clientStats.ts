// What the client itself cost during a run: its CPU (process.cpuUsage deltas) and how late its event loop ran
// (perf_hooks.monitorEventLoopDelay). A client-loop workload measured on a saturated client measures the client, so
// these numbers travel with every run.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { ClientStats } from '../shared/experiment';

export interface ClientStatsSources {
  cpuUsage(previous?: NodeJS.CpuUsage): NodeJS.CpuUsage;
  rss(): number;
  /** Event-loop delay histogram (ns), created per recorder. */
  loopDelay(): Pick<IntervalHistogram, 'enable' | 'disable' | 'percentile' | 'max' | 'count'>;
}

const processSources: ClientStatsSources = {
  cpuUsage: (prev) => process.cpuUsage(prev),
  rss: () => process.memoryUsage().rss,
  // 10 ms resolution: fine enough to see a blocked loop, cheap enough to leave on for a whole run.
  loopDelay: () => monitorEventLoopDelay({ resolution: 10 }),
};

const finiteMs = (ns: number) => (Number.isFinite(ns) && ns > 0 ? ns / 1e6 : 0);

/** The client's figures of a run that measured nothing (it never started, or failed before measuring). */
export function noClientStats(): ClientStats {
  return {
    cpuUserMs: 0,
    cpuSystemMs: 0,
    cpuUsPerCall: null,
    eventLoopLagP99Ms: 0,
    eventLoopLagMaxMs: 0,
    rssMb: processSources.rss() / 1048576,
  };
}

/** start() when measuring begins, stop(calls) when it ends. Not reusable after stop. */
export class ClientStatsRecorder {
  private cpu0: NodeJS.CpuUsage | null = null;
  private readonly lag: ReturnType<ClientStatsSources['loopDelay']>;
  private result: ClientStats | null = null;

  constructor(private readonly sources: ClientStatsSources = processSources) {
    this.lag = sources.loopDelay();
  }

  start(): void {
    if (this.cpu0 || this.result) throw new Error('ClientStatsRecorder.start() called twice');
    this.cpu0 = this.sources.cpuUsage();
    this.lag.enable();
  }

  /**
   * Ends the measurement. `calls`: workload calls made (client loop) or rows written (server loop), for
   * cpuUsPerCall; 0 or omitted gives null. Idempotent: a second call returns the same figures.
   */
  stop(calls = 0): ClientStats {
    if (this.result) return this.result;
    if (!this.cpu0) throw new Error('ClientStatsRecorder.stop() before start()');
    const cpu = this.sources.cpuUsage(this.cpu0);
    this.lag.disable();
    const sampled = this.lag.count > 0;
    this.result = {
      cpuUserMs: cpu.user / 1000,
      cpuSystemMs: cpu.system / 1000,
      cpuUsPerCall: calls > 0 ? (cpu.user + cpu.system) / calls : null,
      eventLoopLagP99Ms: sampled ? finiteMs(this.lag.percentile(99)) : 0,
      eventLoopLagMaxMs: sampled ? finiteMs(this.lag.max) : 0,
      rssMb: this.sources.rss() / 1048576,
    };
    return this.result;
  }
}
