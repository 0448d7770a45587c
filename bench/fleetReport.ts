// The fleet part of bench/results.md and bench/results.json: one `spinlab watch --servers` process at 1, 10 and 50
// servers (bench/fleet.ts measures it), and what each watched server adds.
import type { FleetRow } from './fleet';
import { addFigure, type Figures } from './figures';
import { fmt, markdownTable } from './stats';

/** CPU ms the watch spent per tick it took: fair when slots were skipped (fewer ticks, less CPU). */
export function cpuMsPerTick(r: FleetRow): number {
  return r.ticks > 0 ? (r.cpuPctOfCore * 10 * r.seconds) / r.ticks : NaN;
}

/** What one more watched server adds, from the smallest and the largest fleet measured: CPU % of a core and MB. */
export function perServer(rows: readonly FleetRow[]): { cpuPct: number; rssMb: number } | null {
  const own = rows.filter((r) => r.build === 'this build').sort((a, b) => a.servers - b.servers);
  const lo = own[0];
  const hi = own.at(-1);
  if (!lo || !hi || hi.servers === lo.servers) return null;
  const n = hi.servers - lo.servers;
  return { cpuPct: (hi.cpuPctOfCore - lo.cpuPctOfCore) / n, rssMb: (hi.rssMaxMb - lo.rssMaxMb) / n };
}

export function fleetSection(rows: readonly FleetRow[]): string[] {
  const out = ['## A fleet from one process', ''];
  out.push(
    'One `spinlab watch --servers FILE --prometheus 127.0.0.1:0` process (the real CLI, a child process of its own) watching N servers ' +
      'at 1 s, each its own connection (TLS) to one instance of one `spinlab sim --instances 50` process (also its own; it shares the cores). ' +
      "Measured after every server was up and a warm-up, while /metrics is scraped every 15 s: the watch process's CPU (user + system from " +
      "/proc, % of one core), its resident memory (VmRSS every second: highest / last), and each tick's start against its slot on its " +
      "server's own schedule (bench/fleetProbe.ts, preloaded into the watch: the sampler bench's start jitter). A skipped slot is one whose " +
      "tick had not finished by the next: a round trip longer than the interval (the simulator's share of the cores is in the last column).",
  );
  out.push('');
  out.push(
    markdownTable(
      [
        'servers',
        'build',
        'window',
        'CPU % of a core',
        'CPU ms per tick',
        'RSS max / end',
        'ticks',
        'start jitter p99 all / worst server (max)',
        'slots skipped',
        'round trip p50 / p99',
        'event loop delay p99',
        'simulator CPU',
      ],
      rows.map((r) => [
        String(r.servers),
        r.build,
        `${Math.round(r.seconds)} s`,
        `${fmt(r.cpuPctOfCore)}%`,
        fmt(cpuMsPerTick(r)),
        `${fmt(r.rssMaxMb)} / ${fmt(r.rssEndMb)} MB`,
        fmt(r.ticks),
        `${fmt(r.allJitterP99Ms)} / ${fmt(r.worstJitterP99Ms)} ms (${r.worstServer}, ${fmt(r.worstJitterMaxMs)})`,
        r.worstSkipped ? `${r.skippedTicks} (worst server ${r.worstSkipped})` : String(r.skippedTicks),
        `${fmt(r.rttP50Ms)} / ${fmt(r.rttP99Ms)} ms`,
        `${fmt(r.loopDelayP99Ms)} ms`,
        `${fmt(r.simCpuPctOfCore)}%`,
      ]),
    ),
  );
  const per = perServer(rows);
  if (per)
    out.push(
      '',
      `- each watched server adds about ${fmt(per.cpuPct)}% of a core and ${fmt(per.rssMb)} MB resident (the smallest and largest fleet above).`,
    );
  const trouble = rows.filter((r) => r.troubleLines);
  for (const r of trouble)
    out.push(`- ${r.servers} servers (${r.build}): ${r.troubleLines} line(s) of trouble in the watch's log, e.g. \`${r.trouble[0]}\``);
  out.push('');
  return out;
}

/** The fleet's named figures (this build's rows only). */
export function addFleetFigures(f: Figures, rows: readonly FleetRow[]): void {
  for (const r of rows.filter((x) => x.build === 'this build')) {
    const p = `fleet_${r.servers}_servers`;
    const big = r.servers === 50;
    addFigure(
      f,
      `${p}_cpu_pct_of_core`,
      r.cpuPctOfCore,
      '%',
      big ? { op: '<=', target: 25 } : undefined,
      'the watch process, one core = 100%',
    );
    addFigure(f, `${p}_rss_mb`, r.rssMaxMb, 'MB', big ? { op: '<=', target: 300 } : undefined, 'highest VmRSS over the window');
    addFigure(f, `${p}_cpu_ms_per_tick`, cpuMsPerTick(r), 'ms');
    addFigure(f, `${p}_tick_delay_p99_ms`, r.worstJitterP99Ms, 'ms', undefined, `the worst server's tick start against its slot, p99`);
    addFigure(
      f,
      `${p}_ticks_skipped`,
      r.skippedTicks,
      'slots',
      big ? { op: '<=', target: 0 } : undefined,
      'slots without a tick, every server together',
    );
  }
  const per = perServer(rows);
  if (per) {
    addFigure(f, 'fleet_cpu_pct_of_core_per_server', per.cpuPct, '%');
    addFigure(f, 'fleet_rss_mb_per_server', per.rssMb, 'MB');
  }
}
