// bench/results.md from the figures: the machine, the three parts as tables, the ratios and the target, and a short
// section to paste into the README. Pure (unit-tested in test/unit/benchStats.test.ts).
import type { ClientFigures, ClientKind, DriverResult } from './driver';
import type { ActivationFigures, PanelFigures, PanelLoadFigures, VsixFigures } from './panel';
import type { SamplerFigures } from './sampler';
import type { FleetRow } from './fleet';
import { fleetSection } from './fleetReport';
import { fmt, markdownTable, ratioText } from './stats';
import { readmeBlock } from './readme';
import type { Figures } from './figures';
import { BUCKETS, type Breakdown, type Bucket } from './cpuprofile';
import { scaleSection, type ScaleCell } from './scaleReport';
import { PACE_REPLY_DELAY_MS, workersSection } from './workers';

export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  loadAverage: number;
}

export interface BenchResults {
  machine: Machine;
  quick: boolean;
  seconds: number;
  driver: DriverResult | null;
  sampler: SamplerFigures[] | null;
  panel: PanelFigures | null;
  activation: ActivationFigures | null;
  vsix: VsixFigures | null;
  fleet?: FleetRow[] | null;
  /** bench/scale.ts's grid (absent: the part did not run). */
  scale?: ScaleCell[] | null;
  /** bench/results.json's figures (the README block's goals table). */
  figures?: Figures;
  failures: string[];
}

export const SIMULATOR_NOTE =
  'Figures against the Spinlock Lab simulator on loopback; they compare clients, they are not SQL Server numbers.';

const CLIENT_NAMES: Record<ClientKind, string> = {
  ours: 'Spinlock Lab (WorkloadSessions, lean path: tedious logs in, then a prebuilt RPC per call on the socket)',
  'ours-driver': 'Spinlock Lab through the ordinary driver (--client-path driver: one tedious RPC per call)',
  tedious: 'bare tedious (Connection + callProcedure)',
  native: 'FreeTDS db-lib, C (bench/native/dblib_loop.c)',
  workers1: 'Spinlock Lab on 1 client worker thread (--client-workers 1)',
  workers2: 'Spinlock Lab on 2 client worker threads (--client-workers 2)',
  'workers1-paced': `the same on 1 worker, paced (the simulator answers after ${PACE_REPLY_DELAY_MS} ms)`,
  'workers2-paced': `the same on 2 workers, paced (the simulator answers after ${PACE_REPLY_DELAY_MS} ms)`,
};

/** The 10% target: ours at least 90% of bare tedious's calls per second and per client CPU-second. */
export function driverVerdict(ours: ClientFigures, tedious: ClientFigures): { met: boolean; text: string } {
  const thr = ours.callsPerSec / tedious.callsPerSec;
  const eff = tedious.clientUsPerCall / ours.clientUsPerCall; // calls per CPU-second, ours over tedious
  const met = thr >= 0.9 && eff >= 0.9;
  return {
    met,
    text:
      `${met ? 'met' : 'NOT met'}: ours makes ${Math.round(thr * 100)}% of bare tedious's calls per second and ` +
      `${Math.round(eff * 100)}% of its calls per client CPU-second (target: both at least 90%)`,
  };
}

export function driverSection(d: DriverResult): string[] {
  const out: string[] = [];
  out.push(`## Load driver, client loop`);
  out.push('');
  out.push(
    `${d.sessions} sessions calling \`${d.procedure}\` (disk-insert's client-loop arguments: @key_base bigint, @offset bigint, ` +
      `@batch_size int; the simulator answers it at once, without its contention model) for ${d.seconds} s, ${d.rounds} round(s) with ` +
      `the clients in turn; medians over rounds. Each client and the simulator run in processes of their own; CPU is each ` +
      `process's user+system time over the measured window only.`,
  );
  out.push('');
  out.push(
    markdownTable(
      ['client', 'calls/s', 'client CPU µs/call', 'simulator CPU µs/call'],
      d.clients.map((c) => [CLIENT_NAMES[c.kind], fmt(c.callsPerSec), fmt(c.clientUsPerCall), fmt(c.serverUsPerCall)]),
    ),
  );
  out.push('');
  const by = (k: ClientKind) => d.clients.find((c) => c.kind === k);
  const ours = by('ours');
  const ted = by('tedious');
  const nat = by('native');
  if (ours && ted) {
    out.push(
      `- ours / bare tedious: calls/s ${ratioText(ours.callsPerSec, ted.callsPerSec)}; client CPU per call ${ratioText(ours.clientUsPerCall, ted.clientUsPerCall, false)}`,
    );
    out.push(`- target (ours within 10% of bare tedious): ${driverVerdict(ours, ted).text}`);
  }
  if (ours && nat) {
    out.push(
      `- native / ours: calls/s ${ratioText(nat.callsPerSec, ours.callsPerSec)}; client CPU per call ${ratioText(nat.clientUsPerCall, ours.clientUsPerCall, false)} ` +
        `(the C client spends ${fmt(ours.clientUsPerCall / nat.clientUsPerCall)}x less CPU per call than ours)`,
    );
  }
  if (d.nativeMissing) out.push(`- native client: not measured: ${d.nativeMissing}`);
  out.push('');
  out.push(...workersSection(d), ...cpuSection(d));
  return out;
}

/** The three buckets that took most of a profile's CPU, by name and share: what the profile says, not what it said once. */
function largestShares(b: Breakdown): string {
  return BUCKETS.map((k) => [k, b.byBucket[k] / b.cpuUs] as const)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 3)
    .map(([k, share]) => `${BUCKET_NAMES[k]} ${Math.round(share * 100)}%`)
    .join(', ');
}

/** Where each Node client's CPU goes (node --cpu-prof, self time by module), against the C client's whole cost. */
export function cpuSection(d: DriverResult): string[] {
  if (!d.profiles?.length) return [];
  const out = [
    '### Where the client CPU goes',
    '',
    "One more run of each Node client under `node --cpu-prof` (not in the figures above: profiling slows it), its samples' " +
      "self time grouped by module (bench/cpuprofile.ts), idle left out; each share applied to that run's measured client CPU " +
      'per call. The whole process is profiled (start-up, login and warm-up included), so small shares are approximate.',
    '',
  ];
  const cols = d.profiles;
  out.push(
    markdownTable(
      ['where', ...cols.map((c) => `${c.kind} µs/call (share)`)],
      BUCKETS.map((b) => [
        BUCKET_NAMES[b],
        ...cols.map(
          (c) =>
            `${fmt((c.breakdown.byBucket[b] / c.breakdown.cpuUs) * c.clientUsPerCall)} (${Math.round((100 * c.breakdown.byBucket[b]) / c.breakdown.cpuUs)}%)`,
        ),
      ]).concat([['total (measured, profiled run)', ...cols.map((c) => fmt(c.clientUsPerCall))]]),
    ),
  );
  const nat = d.clients.find((c) => c.kind === 'native');
  const ours = cols.find((c) => c.kind === 'ours');
  if (nat && ours) {
    out.push(
      '',
      `- the floor: the C client (FreeTDS db-lib) spends ${fmt(nat.clientUsPerCall)} µs per call in all; ours spends ` +
        `${fmt(ours.clientUsPerCall)} µs (profiled run); its largest shares: ${largestShares(ours.breakdown)}.`,
    );
  }
  if (ours) {
    const top = ours.breakdown.top.filter((t) => t.bucket === 'ours').slice(0, 3);
    if (top.length)
      out.push(
        `- ours' own costliest functions: ${top.map((t) => `${t.frame} ${fmt((t.us / ours.breakdown.cpuUs) * ours.clientUsPerCall)} µs`).join('; ')}`,
      );
  }
  out.push('');
  return out;
}

const BUCKET_NAMES: Record<Bucket, string> = {
  ours: 'Spinlock Lab (out/src, out/bench)',
  tedious: 'tedious',
  mssql: 'mssql (+ tarn)',
  'other packages': 'other packages (bl, hdr-histogram-js, ...)',
  'node net/tls/stream': "Node's net, TLS and streams (with the socket's native writes)",
  'node other': 'other Node internals (events, buffers, timers, promises)',
  GC: "V8's garbage collector",
  'V8/native': 'V8 builtins and other native code',
};

export function samplerSection(s: SamplerFigures[]): string[] {
  const out: string[] = ['## Sampler', ''];
  const sessions = s[0]?.sessions ?? 64;
  out.push(
    `One monitor connection ticking every interval while ${sessions} sessions run disk-insert's ` +
      `server-loop procedure. Bytes counted on the wire (a counting proxy on loopback; TDS packets both ways) per tick; ` +
      `round trip from the start of a tick to its result sets parsed; jitter is how far each tick started from its slot on ` +
      `the fixed schedule. delta: the product's ticks (sql/dmv/sample-delta.sql prepared once per connection, each tick a ` +
      `short sp_execute returning only the rows that moved); full: the whole sql/dmv/sample.sql batch every tick.`,
  );
  out.push('');
  out.push(
    markdownTable(
      [
        'ticks as',
        'interval',
        'ticks',
        'bytes/tick sent',
        'bytes/tick received',
        'round trip p50 / p99',
        'start jitter p50 / p99 / max',
        'slots skipped',
      ],
      s.map((f) => [
        f.way,
        `${f.intervalMs} ms`,
        String(f.ticks),
        fmt(f.bytesSent),
        fmt(f.bytesReceived),
        `${fmt(f.rttP50Ms)} / ${fmt(f.rttP99Ms)} ms`,
        `${fmt(f.jitter.p50Ms)} / ${fmt(f.jitter.p99Ms)} / ${fmt(f.jitter.maxMs)} ms`,
        String(f.jitter.skipped),
      ]),
    ),
  );
  const problems = s.flatMap((f) => f.problems);
  if (problems.length) out.push('', `Problems reported: ${problems.join('; ')}`);
  out.push('');
  return out;
}

export function panelSection(p: PanelFigures | null, a: ActivationFigures | null, v: VsixFigures | null): string[] {
  const rows: string[][] = [];
  const loads: [PanelLoadFigures, string][] = p
    ? [
        [p, 'an hour'],
        ...(p.fourHours ? [[p.fourHours, 'four hours'] as [PanelLoadFigures, string]] : []),
        ...(p.eightHours ? [[p.eightHours, 'eight hours'] as [PanelLoadFigures, string]] : []),
      ]
    : [];
  for (const [l, what] of loads) {
    rows.push([
      `one tick applied to the six live charts with ${l.loadedTicks.toLocaleString('en-US')} ticks (${what} at 1 s) loaded, p50 / p95 of ${l.tickSamples.length}`,
      `${fmt(l.tickP50Ms)} / ${fmt(l.tickP95Ms)} ms (next frame ${fmt(l.tickFrameP50Ms)} / ${fmt(l.tickFrameP95Ms)} ms)`,
    ]);
    rows.push([
      `${what} itself loaded and drawn (${l.loadSamples.length > 1 ? `median of ${l.loadSamples.length} fresh panels` : 'once'})`,
      `${fmt(l.loadMs)} ms${l.hostEncodeMs !== undefined ? ` (the host's payload before it: ${fmt(l.hostEncodeMs)} ms in Node)` : ''}`,
    ]);
  }
  if (a) {
    rows.push([
      `extension activation: code loading + activate() (Node, stub vscode, fresh process, median of ${a.runs})`,
      `${fmt(a.totalMs)} ms`,
    ]);
    rows.push([`extension activation: code loading of dist/extension.js (chunks loaded: ${a.chunks})`, `${fmt(a.codeLoadingMs)} ms`]);
    rows.push(['extension activation: activate() call', `${fmt(a.activateMs)} ms`]);
    rows.push(['first use: spinlab.open, loading dist/lab.js (the panel, engine, driver, notebook code)', `${fmt(a.firstUseMs)} ms`]);
  }
  if (v) rows.push(['spinlock-lab.vsix', `${fmt(v.bytes / 1024)} KiB${v.files !== null ? `, ${v.files} files` : ''}`]);
  if (!rows.length) return [];
  return [
    '## Panel',
    '',
    "Tick time measured in Chromium (the browser tier's harness: dist/webview.js under the real CSP, a stub VS Code API), from " +
      'posting the tick message until all six charts (all on screen) hold it and have drawn it on their canvases; "next frame" ' +
      'adds the wait for the display frame after that (60 Hz in headless Chromium). Activation measured in Node with a stub `vscode` ' +
      "module in a fresh process per run; VS Code's own figure comes from the e2e tier (test-artifacts/e2e/activation.json).",
    '',
    markdownTable(['figure', 'value'], rows),
    '',
  ];
}

export function renderResults(r: BenchResults): string {
  const m = r.machine;
  const out: string[] = [];
  out.push(`# Spinlock Lab benchmark${r.quick ? ' (QUICK RUN: short, not for the README)' : ''}`);
  out.push('');
  out.push(
    `${m.date}; ${m.cpu}, ${m.cores} CPUs, ${m.memoryGiB} GiB; ${m.os}; Node ${m.node}; load average ${m.loadAverage.toFixed(2)} at the start; ` +
      `the measurements of \`npm run bench${r.quick ? ' -- --quick' : ''}\` took ${Math.round(r.seconds)} s after the build.`,
  );
  out.push('');
  out.push(`**${SIMULATOR_NOTE}** The simulator shares the machine's cores with the client under test.`);
  out.push('');
  if (r.driver) out.push(...driverSection(r.driver));
  if (r.sampler) out.push(...samplerSection(r.sampler));
  if (r.scale) out.push(...scaleSection(r.scale));
  out.push(...panelSection(r.panel, r.activation, r.vsix));
  if (r.fleet) out.push(...fleetSection(r.fleet));
  if (r.failures.length) out.push('## Parts that did not run', '', ...r.failures.map((f) => `- ${f}`), '');
  out.push(...readmeSection(r, r.figures ?? {}));
  return out.join('\n');
}

/** A short section to paste into the README. */
/** bench/results.md's copy of the README's performance block (run.ts writes the same block into README.md). */
export function readmeSection(r: BenchResults, figures: Figures): string[] {
  return ['## For the README', '', '```markdown', ...readmeBlock(r, figures), '```', ''];
}
