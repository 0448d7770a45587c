// A restore journal and a knob state in words, for the panel and the Activity Bar tree. Its own module, light on
// purpose: the tree lists unrestored journals at activation, before the engine and the driver load (activation must stay light).
import * as path from 'node:path';
import type { Journal } from '../engine/journal';
import { formatSpec } from '../shared/affinity';
import type { KnobState } from '../shared/experiment';
import type { JournalSummary } from '../shared/protocol';

export function affinityWords(a: KnobState['affinity']): string {
  return a.type === 'AUTO'
    ? `AUTO (every CPU${a.cpus.length ? `: ${formatSpec(a.cpus)}` : ''})`
    : `CPUs ${a.cpus.length ? formatSpec(a.cpus) : '(none online)'}`;
}

/** A knob state in words: 'CPU affinity AUTO (every CPU: 0-39); delayed durability DISABLED'. */
export function describeKnobState(k: KnobState): string {
  return `CPU affinity ${affinityWords(k.affinity)}; delayed durability ${k.delayedDurability ?? 'unknown (no lab database)'}`;
}

export function summariseJournal(j: Journal): JournalSummary {
  return {
    serverAddress: j.serverAddress,
    changes: [...j.changes],
    createdAt: j.createdAt,
    pid: j.pid,
    original: describeKnobState(j.original),
  };
}

/**
 * Whether a journal belongs to this process's running experiment, so it is that run's own record (put back when the
 * run ends) and not one left by a crash: written by this process, while an experiment runs, for that experiment's
 * output folder (a journal with no folder, from this process while it runs, is the run's too). A journal from another
 * process, or from this one with nothing running, is a leftover.
 */
export function ownedByRun(j: Pick<Journal, 'pid' | 'experimentDir'>, run: { outDir: string } | null, pid = process.pid): boolean {
  if (!run || j.pid !== pid) return false;
  return !j.experimentDir || path.resolve(j.experimentDir) === path.resolve(run.outDir);
}
