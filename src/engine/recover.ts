// After a crash or a kill: the experiment.json of the run that died still says "running" and lacks the run that was
// in progress, while samples.jsonl holds every tick it took. When its restore journal is restored, the record is
// completed from samples.jsonl (the unfinished runs become failed runs with their ticks, folded into totals) and marked
// failed with an event saying what happened. Nothing is invented: client figures the dead process kept in memory
// (latency, CPU) are left empty.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunRecord, Tick } from '../shared/experiment';
import { threadsPerCore } from '../shared/affinity';
import { computeDerived, cpusUsedFromTicks, foldTicks } from './totals';
import { migrateExperiment } from './migrate';
import { plural } from '../shared/plural';

export interface RecoveryResult {
  file: string;
  recoveredRuns: number;
  recoveredTicks: number;
}

interface SampleLine {
  run: number;
  threads: number;
  arm?: string;
  tick: Tick;
}

function readSamples(file: string): SampleLine[] {
  if (!fs.existsSync(file)) return [];
  const out: SampleLine[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const s = JSON.parse(line) as SampleLine;
      if (typeof s.run === 'number' && typeof s.threads === 'number' && s.tick && typeof s.tick.t === 'number') out.push(s);
    } catch {
      // A line cut short by the kill: the ticks before it are whole.
    }
  }
  return out;
}

/** Completes an experiment left "running" by a process that died; null when there is nothing to recover. */
export function recoverExperiment(dir: string, reason: string): RecoveryResult | null {
  const file = path.join(dir, 'experiment.json');
  if (!fs.existsSync(file)) return null;
  const e = migrateExperiment(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>, file);
  if (e.status !== 'running') return null;
  const byRun = new Map<number, SampleLine[]>();
  for (const s of readSamples(path.join(dir, 'samples.jsonl'))) {
    if (e.runs.some((r) => r.index === s.run)) continue; // finished runs are already in the record
    byRun.set(s.run, [...(byRun.get(s.run) ?? []), s]);
  }
  const now = new Date().toISOString();
  let ticks = 0;
  for (const [index, lines] of [...byRun].sort((a, b) => a[0] - b[0])) {
    const timeline = lines.map((l) => l.tick);
    ticks += timeline.length;
    const totals = foldTicks(timeline);
    const armId = lines[0].arm ?? 'main';
    const known = e.runs.find((r) => r.arm?.id === armId)?.arm;
    const record: RunRecord = {
      index,
      threads: lines[0].threads,
      status: 'failed',
      startedAt: e.createdAt,
      endedAt: now,
      elapsedMs: totals.elapsedMs,
      rows: totals.rows,
      sessionsOk: 0,
      sessionFailures: [],
      timeline,
      totals,
      derived: computeDerived(totals, {
        cpusUsed: cpusUsedFromTicks(timeline),
        threads: lines[0].threads,
        threadsPerCore: threadsPerCore(e.topology),
      }),
      client: { cpuUserMs: 0, cpuSystemMs: 0, cpuUsPerCall: null, eventLoopLagP99Ms: 0, eventLoopLagMaxMs: 0, rssMb: 0 },
      latency: null,
      events: [
        {
          time: now,
          level: 'error',
          message: `${reason} ${plural(timeline.length, 'tick')} ${timeline.length === 1 ? 'was' : 'were'} recovered from samples.jsonl; client figures were lost with the process.`,
        },
      ],
      arm: known ?? {
        id: armId,
        label: armId,
        scenarioId: e.scenario.id,
        parameters: e.scenario.parameters,
        knobs: e.knobs.applied,
        mode: e.load.mode,
      },
    };
    e.runs.push(record);
  }
  e.status = 'failed';
  e.events.push({
    time: now,
    level: 'error',
    message: `${reason} The record was completed from samples.jsonl (${plural(byRun.size, 'unfinished run')}, ${plural(ticks, 'tick')}).`,
  });
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(e, null, 2));
  fs.renameSync(tmp, file);
  return { file, recoveredRuns: byRun.size, recoveredTicks: ticks };
}
