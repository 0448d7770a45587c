// A client worker thread: opens its share of a run's sessions (its own connections) and runs each phase's calls on
// its own event loop, so the client loop's CPU spreads over the client's cores. The main thread (clientPool.ts) keeps
// the sampler and the UI and merges what each worker hands back. Built as its own file by tsc (out/) and by webpack
// (dist/clientWorker.js): a worker thread starts from a file.
import { parentPort, workerData } from 'node:worker_threads';
import { CustomSessions } from '../custom/sessions';
import { LatencyRecorder } from '../histogram';
import { WorkloadSessions } from '../load';
import type { FromWorker, ToWorker, WorkerData } from './messages';

const port = parentPort;
if (!port) throw new Error('clientWorker.js runs only as a worker thread (src/engine/workers/clientPool.ts starts it)');
const data = workerData as WorkerData;
const send = (m: FromWorker) => port.postMessage(m);
const live = new Float64Array(data.liveCalls);

let sessions: WorkloadSessions | CustomSessions | null = null;
let cancel = new AbortController();

async function open(): Promise<void> {
  const failures: Parameters<typeof WorkloadSessions.open>[5] = [];
  const range = { first: data.first, tolerant: true, stride: { index: data.index, of: data.of } };
  const p = data.plan;
  try {
    sessions = p.kind === 'builtin'
      ? await WorkloadSessions.open(p.target, p.labDatabase, data.sessions, p.scenario, p.params, failures, range)
      : await CustomSessions.open(p.target, p.workload, p.table, data.sessions, failures, range);
    send({ type: 'opened', ids: sessions.ids, count: sessions.count, failures });
  } catch (err) {
    send({ type: 'open-failed', message: (err as Error).message });
  }
}

async function phase(m: Extract<ToWorker, { type: 'phase' }>): Promise<void> {
  const s = sessions!;
  cancel = new AbortController();
  const latency = m.measured ? new LatencyRecorder() : null;
  const spec = { ...m.spec, latency: latency ?? undefined };
  if (s instanceof CustomSessions) {
    const slot = data.index;
    if (m.measured) live[slot] = 0;
    // A stop-on-error in this worker ends the other workers' phase too: the main thread is told at once.
    const loop = await s.runLoop(spec, cancel.signal, () => { live[slot]++; }, () => send({ type: 'stopped' }));
    const { result, ...custom } = loop;
    send({ type: 'phase-done', result, latency: latency?.state() ?? null, custom });
  } else {
    const result = await s.runPhase(spec, cancel.signal);
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
      void (sessions?.close() ?? Promise.resolve()).then(() => {
        send({ type: 'closed' });
        port.close();
      });
      break;
  }
});

void open();
