// The notebook's markdown text about the setup: escaping for markdown, and the sections that describe a preset's
// arms, the server and its topology, and the knobs and load. Apart from write.ts, which orders the cells, so each
// section's wording can be read in one place; the tables of results and the charts have modules of their own.
import type { Experiment } from '../../shared/experiment';
import { formatNumber } from '../../shared/analysis';
import { citePost } from '../../shared/posts';
import { armsInOrder } from '../../shared/armAnalysis';

export const mdEscape = (s: string) => s.replace(/([\\`*_{}[\]<>|#])/g, '\\$1');

export function presetSection(e: Experiment): string {
  const p = e.preset!;
  const arms = armsInOrder(e.runs).map((a) => {
    const r = e.runs.find((x) => x.arm.id === a.id)!;
    const k = r.arm.knobs;
    const knobs =
      [k.delayedDurability ? `delayed durability ${k.delayedDurability}` : '', k.affinity ? `affinity ${k.affinity.spec}` : '']
        .filter(Boolean)
        .join(', ') || 'server as it was';
    const params = Object.entries(r.arm.parameters)
      .map(([n, v]) => `${n}=${String(v)}`)
      .join(', ');
    const threads = [...new Set(e.runs.filter((x) => x.arm.id === a.id).map((x) => x.threads))].join(', ');
    return `| ${mdEscape(a.label)} | ${r.arm.scenarioId} | ${mdEscape(params)} | ${mdEscape(knobs)} | ${threads} |`;
  });
  return [
    `## Preset \`${p.id}\``,
    '',
    `Reproduces the experiment of ${citePost(p.post, 'markdown')}. ${mdEscape(p.question)}`,
    '',
    ...(p.notes.length ? ['How it adapted to this server:', '', ...p.notes.map((n) => `- ${mdEscape(n)}`), ''] : []),
    '| Arm | Scenario | Parameters | Knobs | Threads |',
    '| --- | --- | --- | --- | --- |',
    ...arms,
  ].join('\n');
}

export function serverSection(e: Experiment): string {
  const t = e.topology;
  const online = t.schedulers.filter((s) => s.isOnline).length;
  const lw =
    t.logWriters.map((w) => `scheduler ${w.schedulerId} (CPU ${w.cpuId ?? '?'}, node ${w.nodeId ?? '?'})`).join('; ') || 'not seen';
  const flags =
    t.traceFlags === null
      ? 'could not be read'
      : t.traceFlags
          .filter((f) => f.global)
          .map((f) => f.flag)
          .join(', ') || 'none';
  const rows: [string, string][] = [
    ['Server', `${e.server.serverName} (${e.server.machineName})`],
    ['Version', `${e.server.productVersion}, ${e.server.edition}`],
    ['Sockets / cores per socket / logical CPUs', `${t.socketCount} / ${t.coresPerSocket} / ${t.cpuCount}`],
    [
      'NUMA nodes',
      `${t.numaNodeCount}${t.softNuma ? ` (soft-NUMA ${t.softNuma})` : ''}: ${t.nodes.map((n) => `node ${n.nodeId} ${n.onlineSchedulerCount}/${n.cpuCount} online`).join(', ')}`,
    ],
    ['Schedulers online', `${online} of ${t.schedulers.length} (affinity ${t.affinityType})`],
    ['Log writer', lw],
    [
      'Memory model',
      `${t.memoryModel ?? 'unknown'}${t.largePageAllocationsKb ? `, large pages ${formatNumber(t.largePageAllocationsKb)} KB` : ''}`,
    ],
    ['Global trace flags', flags],
  ];
  return ['| | |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${mdEscape(v)} |`)].join('\n');
}

export function knobsSection(e: Experiment): string {
  const a = e.knobs.applied;
  const before = e.knobs.before;
  const restored = e.knobs.restored;
  const aff = (x: { type: string; cpus: number[] } | undefined | null) =>
    x ? (x.type === 'AUTO' ? 'AUTO' : `CPUs ${x.cpus.join(',')}`) : 'n/a';
  const rows = [
    [
      'Delayed durability (lab database)',
      before?.delayedDurability ?? 'n/a',
      a.delayedDurability ?? 'unchanged',
      restored?.delayedDurability ?? (a.delayedDurability ? 'not recorded' : 'n/a'),
    ],
    [
      'Process affinity',
      aff(before?.affinity),
      a.affinity ? `${a.affinity.spec}${a.affinity.cpus === 'AUTO' ? '' : ` (CPUs ${a.affinity.cpus.join(',')})`}` : 'unchanged',
      restored ? aff(restored.affinity) : a.affinity ? 'not recorded' : 'n/a',
    ],
  ];
  const params =
    Object.entries(e.scenario.parameters)
      .map(([k, v]) => `\`${k}\` = ${String(v)}`)
      .join(', ') || 'none';
  const load = e.load;
  return [
    `Scenario **${e.scenario.id}** with ${params}; ${load.mode}, threads ${load.threads.join(', ')}, ` +
      `${load.rows !== null ? `${formatNumber(load.rows)} rows per run` : `${(load.durationMs ?? 0) / 1000} s per run`}, ` +
      `warm-up ${load.warmupMs / 1000} s, sampled every ${load.intervalMs} ms; lab database \`${e.labDatabase}\`.`,
    '',
    '| Setting | Before | During the runs | After (restored) |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.map(mdEscape).join(' | ')} |`),
  ].join('\n');
}
