// The README's performance block, from one bench run: the goals with their verdicts, then one small table per
// dimension a user scales along (sessions, schedulers, watched servers, hours loaded, and the client loop against a
// native client), so the cost at their size can be read off. A full run writes it between the README's markers
// (run.ts); bench/results.md carries the same text. Pure: figures in, markdown out.
import type { Figures } from './figures';
import { goalRows } from './figures';
import type { DriverResult } from './driver';
import type { FleetRow } from './fleet';
import type { PanelFigures } from './panel';
import type { ScaleCell } from './scaleReport';
import { fmt, markdownTable } from './stats';
import { workersOf } from './workers';

export const README_BEGIN = '<!-- bench:begin (written by `npm run bench`; edit bench/readme.ts, not this block) -->';
export const README_END = '<!-- bench:end -->';

const kib = (b: number) => `${fmt(b / 1024)} KiB`;
const ms = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? 'n/a' : `${fmt(v)} ms`);

function scaleRows(cells: readonly ScaleCell[], axis: 'sessions' | 'schedulers'): string[][] {
  const held = axis === 'sessions' ? 'schedulers' : 'sessions';
  const top = Math.max(...cells.map((c) => c[held]));
  const steps = [...new Set(cells.filter((c) => c[held] === top).map((c) => c[axis]))].sort((a, b) => a - b);
  return steps.map((n) => {
    const at = (kind: ScaleCell['kind']) => cells.find((c) => c.kind === kind && c[held] === top && c[axis] === n);
    const s = at('sampler');
    const w = at('watch');
    return [
      n.toLocaleString('en-US'),
      s ? kib(s.bytesSent + s.bytesReceived) : 'n/a',
      ms(s?.serverCpuMsPerTick),
      w ? kib(w.bytesSent + w.bytesReceived) : 'n/a',
      ms(w?.serverCpuMsPerTick),
    ];
  });
}

/** What the block reads of a run (report.ts's BenchResults has all of it). */
export interface ReadmeInput {
  machine: { date: string; cpu: string; cores: number; memoryGiB: number; node: string; loadAverage: number };
  driver: DriverResult | null;
  scale?: ScaleCell[] | null;
  fleet?: FleetRow[] | null;
  panel: PanelFigures | null;
}

/** The block's lines (no fence): what ran where, the goals, then the cost along each dimension. */
export function readmeBlock(r: ReadmeInput, figures: Figures): string[] {
  const m = r.machine;
  const out: string[] = [
    `Last full run: ${m.date}, ${m.cpu}, ${m.cores} CPUs (shared with the simulator), ${m.memoryGiB} GiB, Node ${m.node}, ` +
      `load average ${m.loadAverage.toFixed(2)} at the start. Figures against the Spinlock Lab simulator on loopback: they ` +
      `compare clients and show how costs grow; its CPU figures are its synthetic model, not SQL Server's.`,
    '',
  ];
  const goals = goalRows(figures);
  if (goals.length)
    out.push(
      '**Goals** (`bench/results.json` has every figure by name)',
      '',
      markdownTable(['figure', 'value', 'goal', 'verdict'], goals),
      '',
    );
  const d = r.driver;
  const nat = d?.clients.find((c) => c.kind === 'native');
  if (d?.clients.length) {
    out.push(
      `**Client loop**, ${d.sessions} sessions, one client process each (client CPU per call; the C client is the native yardstick)`,
      '',
      markdownTable(
        ['client', 'calls/s', 'client CPU per call', 'against C'],
        d.clients
          .filter((c) => workersOf(c.kind) === null)
          .map((c) => [
            c.kind === 'ours'
              ? 'Spinlock Lab (lean path, the default)'
              : c.kind === 'ours-driver'
                ? 'Spinlock Lab, `--client-path driver`'
                : c.kind === 'tedious'
                  ? 'bare tedious'
                  : 'FreeTDS db-lib in C',
            fmt(c.callsPerSec),
            `${fmt(c.clientUsPerCall)} µs`,
            nat ? `${fmt(c.clientUsPerCall / nat.clientUsPerCall)}x` : 'n/a',
          ])
          .concat(nat ? [] : [['FreeTDS db-lib in C', 'not measured', d.nativeMissing ?? '', '']]),
      ),
      '',
    );
  }
  const cells = r.scale ?? [];
  if (cells.length) {
    const head = ['sampler bytes/tick', 'sampler server CPU/tick', 'watch bytes/tick', 'watch server CPU/tick'];
    const topSched = Math.max(...cells.map((c) => c.schedulers));
    const topSess = Math.max(...cells.map((c) => c.sessions));
    out.push(
      `**Busy sessions** (at ${topSched} schedulers; 1 s ticks; server CPU in the simulator's model)`,
      '',
      markdownTable(['sessions', ...head], scaleRows(cells, 'sessions')),
      '',
      `**Schedulers** (at ${topSess.toLocaleString('en-US')} busy sessions)`,
      '',
      markdownTable(['schedulers', ...head], scaleRows(cells, 'schedulers')),
      '',
    );
  }
  const fleet = (r.fleet ?? []).filter((f) => f.build === 'this build');
  if (fleet.length) {
    out.push(
      '**Watched servers**, one `spinlab watch --servers` process at 1 s',
      '',
      markdownTable(
        ['servers', 'CPU, % of one core', 'resident memory (max)', 'worst server tick delay p99', 'slots skipped'],
        fleet.map((f) => [
          String(f.servers),
          `${fmt(f.cpuPctOfCore)}%`,
          `${fmt(f.rssMaxMb)} MB`,
          `${fmt(f.worstJitterP99Ms)} ms`,
          String(f.skippedTicks),
        ]),
      ),
      '',
    );
  }
  const p = r.panel;
  if (p) {
    const loads = [p, p.fourHours, p.eightHours].filter((l): l is NonNullable<typeof l> => !!l);
    out.push(
      '**Hours loaded** in the panel (1 s ticks; Chromium, the real webview bundle)',
      '',
      markdownTable(
        ['hours', 'first draw', "host's payload (Node)", 'one more tick, p50 / p95'],
        loads.map((l) => [fmt(l.loadedTicks / 3600), ms(l.loadMs), ms(l.hostEncodeMs), `${fmt(l.tickP50Ms)} / ${fmt(l.tickP95Ms)} ms`]),
      ),
      '',
    );
  }
  return out;
}

/** README text with the block between the markers replaced; throws when the markers are missing. */
export function replaceReadmeBlock(readme: string, block: string[]): string {
  const a = readme.indexOf(README_BEGIN);
  const b = readme.indexOf(README_END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${README_BEGIN} ... ${README_END} block to write the figures into`);
  return `${readme.slice(0, a + README_BEGIN.length)}\n\n${block.join('\n')}\n${readme.slice(b)}`;
}
