// The client-worker comparison of the driver bench: the same sessions on 1 and on 2 client worker threads, measured
// twice. As fast as they go ("saturated"): one worker with the simulator already fills the machine's 2 CPUs, so 2
// workers only wait longer for the simulator and the CPU ratio measures its share of the CPUs. Paced: the simulator
// holds each answer PACE_REPLY_DELAY_MS (bench/simProcess.ts, `bench-delay`), which caps every session's loop, so both
// runs make the same calls per second, well inside the CPUs, and the ratio is what the second worker costs for the
// same load. The load driver has no pace of its own for a scenario's client loop (only a custom workload's think
// time), and pacing on the server side leaves the client's code exactly as a run has it: the pacing is bench-only.
import type { ChildProcess } from 'node:child_process';
import { next, type Msg } from './ipc';
import { fmt, ratioText } from './stats';

/** How long the simulator holds each answer in the paced runs: 16 sessions make at most 4,000 calls/s. */
export const PACE_REPLY_DELAY_MS = 4;

export type WorkerKind = 'workers1' | 'workers2' | 'workers1-paced' | 'workers2-paced';

/** What the section reads of bench/driver.ts's DriverResult (a shape of its own here: driver.ts imports this file). */
export interface WorkersRun {
  sessions: number;
  cores?: number;
  clients: { kind: string; callsPerSec: number; clientUsPerCall: number; serverUsPerCall: number }[];
}

/** The client worker threads a kind runs on, or null for a kind that is not the worker comparison's. */
export function workersOf(kind: string): 1 | 2 | null {
  return kind === 'workers1' || kind === 'workers1-paced' ? 1 : kind === 'workers2' || kind === 'workers2-paced' ? 2 : null;
}

export function isPaced(kind: string): boolean {
  return kind === 'workers1-paced' || kind === 'workers2-paced';
}

/** Sets the simulator's answer delay for the bench procedure (0: at once). */
export async function setReplyDelay(sim: ChildProcess, ms: number): Promise<void> {
  sim.send({ kind: 'bench-delay', ms });
  await next<Msg>(sim, 'bench-delay');
}

/** The calls/s `sessions` paced sessions can make at most: one call per delay each (the round trip only lowers it). */
export function paceCeiling(sessions: number, delayMs = PACE_REPLY_DELAY_MS): number {
  return (sessions * 1000) / delayMs;
}

/** The calls/s ratio 2 workers can reach over 1 when a server of `serverUs` per call shares the client's `cores`. */
export function workersCeiling(cores: number, clientUs: number, serverUs: number): number {
  return Math.min(2, (cores * clientUs) / (clientUs + serverUs));
}

/** Calls/s and client CPU per call with 2 client worker threads against 1 (the same sessions), saturated and paced. */
export function workersSection(d: WorkersRun): string[] {
  const by = (k: WorkerKind) => d.clients.find((c) => c.kind === k);
  const w1 = by('workers1');
  const w2 = by('workers2');
  const p1 = by('workers1-paced');
  const p2 = by('workers2-paced');
  if (!(w1 && w2) && !(p1 && p2)) return [];
  const cores = d.cores ?? '?';
  const out = [
    '### Client worker threads',
    '',
    `The same ${d.sessions} sessions on 1 and on 2 client worker threads (\`--client-workers\`), the main thread idle beside them ` +
      `(in a run it keeps the sampler and the UI). Client CPU is the whole client process's, every thread.`,
    '',
  ];
  if (p1 && p2) {
    const cap = paceCeiling(d.sessions);
    // Each session waits the delay plus its round trip, so the runs stay under the cap; what matters is that both made
    // the same calls per second (within 10%), well inside what the CPUs give saturated (under 60% of that rate).
    const sameRate = Math.abs(p2.callsPerSec / p1.callsPerSec - 1) <= 0.1;
    const inside = !w1 || Math.max(p1.callsPerSec, p2.callsPerSec) <= 0.6 * w1.callsPerSec;
    const held = sameRate && inside;
    out.push(
      `- paced (carries the goal, 2 workers' CPU per call within 10% of 1 worker's): the simulator holds each answer ${PACE_REPLY_DELAY_MS} ms, ` +
        `so ${d.sessions} sessions make at most ${fmt(cap)} calls/s on either; 1 worker ${fmt(p1.callsPerSec)} calls/s at ${fmt(p1.clientUsPerCall)} µs/call, ` +
        `2 workers ${fmt(p2.callsPerSec)} calls/s at ${fmt(p2.clientUsPerCall)} µs/call: calls/s ${ratioText(p2.callsPerSec, p1.callsPerSec)}; ` +
        `client CPU per call ${ratioText(p2.clientUsPerCall, p1.clientUsPerCall, false)}. ` +
        (held
          ? 'Both ran at the pace (the delay plus each round trip), at the same rate and inside the CPUs: the same work at the same rate, so the ratio is what the second worker costs for this load.'
          : `The pace did not hold (${sameRate ? 'both ran at over 60% of the saturated rate' : 'the two runs made different calls per second'}): ` +
            `the machine was saturated anyway (the load average is in the header).`),
    );
  }
  if (w1 && w2) {
    out.push(
      `- saturated (no goal: it measures the simulator's share of the CPUs): calls/s ${ratioText(w2.callsPerSec, w1.callsPerSec)}; ` +
        `client CPU per call ${ratioText(w2.clientUsPerCall, w1.clientUsPerCall, false)}`,
      `- ceiling: the simulator runs in its own process on the same ${cores} CPUs. One worker, saturated, makes 1e6 / ${fmt(w1.clientUsPerCall)} calls/s ` +
        `(its client CPU per call); each call also costs the simulator ${fmt(w1.serverUsPerCall)} µs. Both together fit in the CPUs at most ` +
        `${cores} x 1e6 / (${fmt(w1.clientUsPerCall)} + ${fmt(w1.serverUsPerCall)}) calls/s, so 2 workers can give at most ` +
        `${d.cores ? fmt(workersCeiling(d.cores, w1.clientUsPerCall, w1.serverUsPerCall)) : '?'}x the calls/s of one here, and less with anything else running ` +
        `(the load average is in the header). Past the simulator's share of the CPUs, each worker waits for its replies more often, ` +
        `wakes for fewer of them at a time, and the client's CPU per call rises.`,
    );
  }
  out.push(
    `- why 2 workers can cost more per call even paced (found when this comparison was built, bench/workers.ts): one event loop's ` +
      `CPU per call rises as its own call rate falls (the same loop with fewer sessions at the same pace costs more per call), and 2 ` +
      `workers each serve half the calls; 2 client processes of half the sessions each cost as much more, and the main thread takes ` +
      `under 1 µs per call, so it is not the workers' messaging.`,
    '',
  );
  return out;
}
