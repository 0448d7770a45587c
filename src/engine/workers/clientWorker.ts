// A client worker thread: opens its share of a run's sessions (its own connections) and runs each phase's calls on
// its own event loop, so the client loop's CPU spreads over the client's cores. The main thread (clientPool.ts) keeps
// the sampler and the UI and merges what each worker hands back. Built as its own file by tsc (out/) and by webpack
// (dist/clientWorker.js): a worker thread starts from a file.
import { parentPort, workerData } from 'node:worker_threads';
import { CustomSessions } from '../custom/sessions';
import { LatencyRecorder } from '../histogram';
import { WorkloadSessions } from '../load';
import type { PhaseFailure } from '../loadDriver';
import type { FromWorker, ToWorker, WorkerData } from './messages';

const port = parentPort;
if (!port) throw new Error('clientWorker.js runs only as a worker thread (src/engine/workers/clientPool.ts starts it)');
const data = workerData as WorkerData;
const send = (m: FromWorker) => port.postMessage(m);
const live = new Float64Array(data.liveCalls);

/** The worker's sessions, by the plan's kind: a custom workload's loop hands back its error tally as well. */
let held: { kind: 'builtin'; sessions: WorkloadSessions } | { kind: 'custom'; sessions: CustomSessions } | null = null;
let cancel = new AbortController();

async function open(): Promise<void> {
  const failures: PhaseFailure[] = [];
  const range = { first: data.first, tolerant: true, stride: { index: data.index, of: data.of } };
  const p = data.plan;
  try {
    held =
      p.kind === 'builtin'
        ? {
            kind: 'builtin',
            sessions: await WorkloadSessions.open(
              p.target,
              p.labDatabase,
              data.sessions,
              p.scenario,
              p.params,
              failures,
              range,
              p.clientPath,
            ),
          }
        : { kind: 'custom', sessions: await CustomSessions.open(p.target, p.workload, p.table, data.sessions, failures, range) };
    send({ type: 'opened', ids: held.sessions.ids, count: held.sessions.count, failures });
  } catch (err) {
    send({ type: 'open-failed', message: (err as Error).message });
  }
}

async function phase(m: Extract<ToWorker, { type: 'phase' }>): Promise<void> {
  const h = held!;
  cancel = new AbortController();
  const measured = m.spec.phase === 'measure';
  const latency = measured ? new LatencyRecorder() : null;
  const spec = { ...m.spec, latency: latency ?? undefined };
  const slot = data.index;
  if (measured) live[slot] = 0;
  const onCall = () => {
    live[slot]++;
  };
  if (h.kind === 'custom') {
    // A stop-on-error in this worker ends the other workers' phase too: the main thread is told at once.
    const { result, ...custom } = await h.sessions.runLoop(spec, cancel.signal, onCall, () => send({ type: 'stopped' }));
    send({ type: 'phase-done', result, latency: latency?.state() ?? null, custom });
  } else {
    const result = await h.sessions.runPhase(spec, cancel.signal, onCall);
    send({ type: 'phase-done', result, latency: latency?.state() ?? null, custom: null });
  }
}

port.on('message', (m: ToWorker) => {
  switch (m.type) {
    case 'phase':
      phase(m).catch((err: Error) => send({ type: 'phase-failed', message: err.message }));
      break;
    case 'cancel':
    case 'halt':
      cancel.abort();
      break;
    case 'close':
      void (held?.sessions.close() ?? Promise.resolve()).then(() => {
        send({ type: 'closed' });
        port.close();
      });
      break;
  }
});

void open();
