// bench/results.md's "Costs as the server grows" section and the named figures of bench/scale.ts's grid. Pure: no
// simulator, no driver (report.ts and run.ts import it).
import { addFigure, type Figures } from './figures';
import { fmt, markdownTable } from './stats';

export type TickKind = 'sampler' | 'watch';

export interface ScaleCell {
  kind: TickKind;
  topology: string;
  schedulers: number;
  /** Background sessions asked for, and the user sessions and requests sys.dm_exec_sessions/requests served. */
  sessions: number;
  sessionsSeen: number;
  requestsSeen: number;
  ticks: number;
  /** Per tick, medians: bytes client -> server and back. */
  bytesSent: number;
  bytesReceived: number;
  rttP50Ms: number;
  rttP99Ms: number;
  /** The monitor session's cpu_time delta over the measured ticks, per tick (synthetic). */
  serverCpuMsPerTick: number;
}

const bytes = (c: ScaleCell) => c.bytesSent + c.bytesReceived;

function cell(cells: readonly ScaleCell[], kind: TickKind, schedulers: number, sessions: number): ScaleCell | undefined {
  return cells.find((c) => c.kind === kind && c.schedulers === schedulers && c.sessions === sessions);
}

/** The goals of issue 32 at the largest cell (256 schedulers, 2,048 sessions), and the same cell's other figures. */
export function addScaleFigures(f: Figures, cells: readonly ScaleCell[]): void {
  const s = cell(cells, 'sampler', 256, 2048);
  const w = cell(cells, 'watch', 256, 2048);
  const note = "the simulator's synthetic CPU model (tools/sim/model/planCost.ts), not SQL Server's";
  if (s) {
    addFigure(f, 'sampler_bytes_per_tick_256sched_2048sess', bytes(s), 'bytes', { op: '<=', target: 8192 });
    addFigure(f, 'sampler_server_cpu_ms_per_tick_256sched_2048sess', s.serverCpuMsPerTick, 'ms', undefined, note);
  }
  if (w) {
    addFigure(f, 'watch_bytes_per_tick_256sched_2048sess', bytes(w), 'bytes');
    addFigure(f, 'watch_server_cpu_ms_per_tick_256sched_2048sess', w.serverCpuMsPerTick, 'ms', { op: '<=', target: 20 }, note);
  }
}

/** How a figure moves along one axis with the other held at its largest value: 'a -> b (+d)'. */
function growth(
  cells: readonly ScaleCell[],
  kind: TickKind,
  axis: 'schedulers' | 'sessions',
  of: (c: ScaleCell) => number,
  unit: string,
): string | null {
  const held = axis === 'schedulers' ? 'sessions' : 'schedulers';
  const mine = cells.filter((c) => c.kind === kind);
  if (!mine.length) return null;
  const top = Math.max(...mine.map((c) => c[held]));
  const line = mine.filter((c) => c[held] === top).sort((a, b) => a[axis] - b[axis]);
  if (line.length < 2) return null;
  const [a, b] = [line[0], line[line.length - 1]];
  const d = of(b) - of(a);
  return `${fmt(of(a))} -> ${fmt(of(b))} ${unit} (${d >= 0 ? '+' : ''}${fmt(d)}) from ${a[axis]} to ${b[axis]} ${axis} at ${top} ${held}`;
}

export function scaleSection(cells: readonly ScaleCell[]): string[] {
  if (!cells.length) return [];
  const keys = [...new Set(cells.map((c) => `${c.schedulers}/${c.sessions}`))];
  const rows = keys.map((k) => {
    const [sched, sess] = k.split('/').map(Number);
    const s = cell(cells, 'sampler', sched, sess);
    const w = cell(cells, 'watch', sched, sess);
    const any = (s ?? w)!;
    const fig = (c: ScaleCell | undefined) =>
      c ? [fmt(bytes(c)), `${fmt(c.rttP50Ms)} / ${fmt(c.rttP99Ms)}`, fmt(c.serverCpuMsPerTick)] : ['n/a', 'n/a', 'n/a'];
    return [`${sched} (${any.topology})`, `${sess}`, `${any.sessionsSeen} / ${any.requestsSeen}`, ...fig(s), ...fig(w)];
  });
  const ticks = cells[0].ticks;
  const out = [
    '## Costs as the server grows',
    '',
    `The product's two monitor ticks, each on its own connection, one of each per second (${ticks} measured ticks per cell ` +
      `after the first two: the first connects, sets up and prepares, and the watch's second compiles the statements of its ` +
      `other snapshot generation, which SQL Server compiles with the batch and the simulator on first use): the sampler's delta tick (sql/dmv/sample-delta.sql, a run's) and ` +
      `the watch's (sql/watch/tick-delta.sql, \`spinlab watch\` with its defaults), against the simulator with \`--topology\` ` +
      `(schedulers) and \`--background disk-insert:N\` (N busy user sessions, each with a running request). Bytes per tick ` +
      `on the wire both ways (a counting proxy), median; round trip p50 / p99; server CPU per tick is the monitor session's ` +
      `sys.dm_exec_sessions.cpu_time delta over the measured ticks, read from another connection. **The CPU figures are the ` +
      `simulator's synthetic model** (tools/sim/model/planCost.ts: a cost per statement and per row read, written or ` +
      `returned, every DMV row a statement scans included), not SQL Server's; round trips include the simulator's own work.`,
    '',
    markdownTable(
      [
        'schedulers',
        'sessions',
        'served: user sessions / requests',
        'sampler bytes',
        'sampler round trip ms',
        'sampler CPU ms',
        'watch bytes',
        'watch round trip ms',
        'watch CPU ms',
      ],
      rows,
    ),
    '',
  ];
  const lines = [
    ['sampler bytes', growth(cells, 'sampler', 'schedulers', bytes, 'B'), growth(cells, 'sampler', 'sessions', bytes, 'B')],
    ['watch bytes', growth(cells, 'watch', 'schedulers', bytes, 'B'), growth(cells, 'watch', 'sessions', bytes, 'B')],
    [
      'sampler CPU',
      growth(cells, 'sampler', 'schedulers', (c) => c.serverCpuMsPerTick, 'ms'),
      growth(cells, 'sampler', 'sessions', (c) => c.serverCpuMsPerTick, 'ms'),
    ],
    [
      'watch CPU',
      growth(cells, 'watch', 'schedulers', (c) => c.serverCpuMsPerTick, 'ms'),
      growth(cells, 'watch', 'sessions', (c) => c.serverCpuMsPerTick, 'ms'),
    ],
  ];
  for (const [what, bySched, bySess] of lines)
    if (bySched || bySess) out.push(`- ${what}: ${[bySched, bySess].filter(Boolean).join('; ')}`);
  out.push(
    '- bytes grow with the busy schedulers (the fewer of schedulers and busy sessions): each is a moved row every tick ' +
      "(its total_cpu_usage_ms); sessions add bytes otherwise only through the watch's capped lists (top requests, waits " +
      'by type). CPU grows with both: each DMV row a statement scans is charged, and at 2,048 sessions the watch spends ' +
      'most of it on sessions: it scans sys.dm_exec_sessions, sys.dm_exec_requests and sys.dm_os_waiting_tasks once each ' +
      '(the sessions it leaves out, system ones and its own, kept in a #temp table for both lists); the sampler reads ' +
      'sys.dm_exec_sessions once. The watch writes each tick into the other of two #temp generations instead of copying ' +
      'its snapshot (the sampler still copies its schedulers, a DELETE and an INSERT per scheduler each tick).',
    '',
  );
  return out;
}
