// The configurations a tune tries, built from the server's shape unless the user narrowed them: affinities (all CPUs,
// without core 0, the log writer's node, each other node, fewer cores), rows per transaction for a scenario that has
// them, FORCED delayed durability only when the user allowed it, and for each configuration a session ladder up to the
// CPUs its affinity leaves. The server's current settings are always configuration c0: the A of the final A/B.
import type { ParamValue } from '../../shared/experiment';
import type { Topology } from '../../shared/types';
import type { TuneConfig, TuneConstraint, TuneSpaceRequest } from '../../shared/tune';
import { coreSiblings, cpusByNode, currentAffinity, formatSpec, parseAffinity } from '../../shared/affinity';
import { SpinlabError } from '../errors';
import { logWriterNode } from '../presets/topology';
import type { ScenarioManifest } from '../scenarios';
import { plural } from '../../shared/plural';

/** The rows per transaction tried by default (with the current value), within what the scenario accepts. */
export const DEFAULT_BATCH_SIZES = [1, 2, 5, 10];

interface AffinityOption {
  spec: string | null;
  why: string;
  cpus: number[];
}

const key = (cpus: readonly number[]) => cpus.join(',');

/** Affinity candidates from the topology, each with the reason it is worth trying; the current affinity first. */
export function affinityOptions(t: Topology, notes: string[], requested?: readonly string[]): AffinityOption[] {
  const now = currentAffinity(t).cpus;
  const all = [...cpusByNode(t).values()].flat().sort((a, b) => a - b);
  const out: AffinityOption[] = [
    { spec: null, why: `the current affinity (${t.affinityType}, ${plural(now.length, 'CPU')}: ${formatSpec(now)})`, cpus: now },
  ];
  const seen = new Set([key(now)]);
  const add = (spec: string, why: string) => {
    const r = parseAffinity(spec, t);
    const cpus = r.cpus === 'AUTO' ? all : r.cpus;
    if (!cpus.length || seen.has(key(cpus))) return;
    seen.add(key(cpus));
    out.push({ spec, why, cpus });
  };
  if (requested?.length) {
    for (const spec of requested) add(spec, `asked for (${spec})`);
    return out;
  }
  add('auto', 'all CPUs (AUTO)');
  if (all.length > 2 * coreSiblings(0, t).length) add('exclude-core0', 'without core 0, where the log writer and system tasks run');
  const nodes = [...cpusByNode(t).entries()].filter(([, c]) => c.length > 0).map(([n]) => n);
  const lw = nodes.length > 1 ? logWriterNode(t, notes) : null;
  if (lw !== null) {
    add(`numa:${lw}`, `the log writer's node (node ${lw})`);
    for (const n of nodes.filter((x) => x !== lw)) add(`numa:${n}`, `another node than the log writer's (node ${n})`);
    add(`numa:${lw}-first-core`, `the log writer's node without its first core (node ${lw})`);
  }
  // Fewer cores: half of the log writer's node (or of the machine) past core 0, for a workload that scales badly.
  const lwCpus = lw !== null ? (cpusByNode(t).get(lw) ?? all) : all;
  const core0 = new Set(coreSiblings(lwCpus[0], t));
  const rest = lwCpus.filter((c) => !core0.has(c));
  const half = rest.slice(0, Math.max(1, Math.floor(rest.length / 2)));
  if (half.length >= 2 && half.length < rest.length)
    add(`cpu:${formatSpec(half)}`, `fewer cores: ${plural(half.length, 'CPU')} of the log writer's node past its first core`);
  return out;
}

/** A session ladder for `cpus` CPUs: every count from 1 to cpus (the search picks points on it), or the user's list. */
function ladder(cpus: number, requested: readonly number[] | undefined, constraints: readonly TuneConstraint[]): number[] {
  const max = Math.min(
    ...constraints.filter((c) => c.figure === 'sessions' && c.op === '<=').map((c) => c.value),
    requested?.length ? Math.max(...requested) : cpus,
  );
  const min = Math.max(1, ...constraints.filter((c) => c.figure === 'sessions' && c.op === '>=').map((c) => c.value));
  const base = requested?.length ? [...new Set(requested)].sort((a, b) => a - b) : Array.from({ length: cpus }, (_, i) => i + 1);
  return base.filter((n) => n >= min && n <= max);
}

export interface SpaceInput {
  topology: Topology;
  /** null for a custom workload: no rows-per-transaction knob. */
  scenario: ScenarioManifest | null;
  parameters: Record<string, ParamValue>;
  request: TuneSpaceRequest;
  constraints: readonly TuneConstraint[];
  /** The lab database's delayed durability now. */
  currentDelayedDurability: string | null;
}

export function buildSpace(input: SpaceInput, notes: string[]): TuneConfig[] {
  const { topology, scenario, request } = input;
  const affinities = affinityOptions(topology, notes, request.affinity);
  const batchParam = scenario?.parameters.find((p) => p.name === 'batch_size') ?? null;
  const current = batchParam ? Number(input.parameters.batch_size ?? batchParam.default) : null;
  let batches: (number | null)[] = [null];
  if (batchParam && current !== null) {
    // The current value is always in: the current settings are the A of the final A/B.
    const wanted = [current, ...(request.batchSizes?.length ? request.batchSizes : DEFAULT_BATCH_SIZES)];
    checkBatchSizes(scenario, wanted);
    batches = [...new Set(wanted)].sort((a, b) => a - b);
  } else if (request.batchSizes?.length) checkBatchSizes(scenario, request.batchSizes);
  const forced = request.allow?.includes('forced') && input.currentDelayedDurability !== 'FORCED';
  const dds: ('FORCED' | null)[] = forced ? [null, 'FORCED'] : [null];
  const configs: TuneConfig[] = [];
  for (const a of affinities)
    for (const b of batches)
      for (const dd of dds) {
        const isCurrent = a.spec === null && (b === null || b === current) && dd === null;
        const sessions = ladder(a.cpus.length, request.sessions, input.constraints);
        if (!sessions.length) continue;
        const parts = [a.spec === null ? 'current affinity' : `${a.spec}`];
        if (b !== null) parts.push(`${b} row${b === 1 ? '' : 's'}/tx`);
        if (dd) parts.push('DD forced');
        configs.push({
          id: '',
          label: parts.join(' · '),
          affinity: a.spec,
          affinityWhy: a.why,
          batchSize: b,
          delayedDurability: dd,
          cpus: a.cpus.length,
          sessions,
          current: isCurrent,
        });
      }
  // c0 is the current settings; the others number in the order built.
  configs.sort((x, y) => Number(y.current) - Number(x.current));
  configs.forEach((c, i) => (c.id = `c${i}`));
  if (!configs.length || !configs[0].current) {
    // The current settings are the A of the final A/B: without a session count for them there is no tune.
    const limits = input.constraints.filter((c) => c.figure === 'sessions').map((c) => `sessions${c.op}${c.value}`);
    const counts = request.sessions?.length
      ? `--sessions ${request.sessions.join(',')}`
      : `1 to ${affinities.find((a) => a.spec === null)?.cpus.length ?? topology.cpuCount} sessions (the CPUs the current affinity leaves)`;
    throw new SpinlabError(
      'user-input',
      `No session count is left to try for the current settings: ${limits.join(' and ') || 'the session limits'} against ${counts}. Nothing was changed.`,
      'widen the sessions constraint, or give --sessions counts within it.',
    );
  }
  return configs;
}

/**
 * Rows per transaction to try, against the scenario's batch_size parameter: one it has, in its range. `null`: a custom
 * workload. Checked before connecting too (the command line), so the refusal comes before any plan is printed.
 */
export function checkBatchSizes(scenario: ScenarioManifest | null, sizes: readonly number[]): void {
  const p = scenario?.parameters.find((x) => x.name === 'batch_size') ?? null;
  if (!scenario)
    throw new SpinlabError(
      'user-input',
      'Rows per transaction is a knob of the scenarios only: a custom workload commits as its T-SQL does.',
    );
  if (!p)
    throw new SpinlabError(
      'user-input',
      `The ${scenario.id} scenario has no rows-per-transaction parameter (batch_size): leave --batch-size out.`,
    );
  const lo = p.min ?? 1;
  const hi = p.max ?? Number.MAX_SAFE_INTEGER;
  const bad = sizes.filter((b) => !Number.isInteger(b) || b < lo || b > hi);
  if (bad.length)
    throw new SpinlabError('user-input', `Rows per transaction must be whole numbers from ${lo} to ${hi}; got ${bad.join(', ')}.`);
}
