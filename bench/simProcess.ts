// The simulator in a process of its own (`node out/bench/simProcess.js`), so its CPU is never counted as a client's.
// It reports its port, answers `cpu` with its own process.cpuUsage(), and stops on `stop`.
import { setTimeout as sleep } from 'node:timers/promises';
import { startSimulator, type Simulator } from '../tools/sim/simulator';
import { BENCH_PROCEDURE, BENCH_SIM_PASSWORD } from './constants';
import { fromParent, runRole, toParent, type Msg } from './ipc';

/**
 * How long BENCH_PROCEDURE holds its answer (ms; 0: at once), set by a `bench-delay` message: a server that takes this
 * long per call paces every session's loop, so the client's calls per second stay below what the CPUs can carry
 * (bench/workers.ts). An ATTENTION ends the wait.
 */
let replyDelayMs = 0;

/**
 * Registers BENCH_PROCEDURE in `database` (deployed first): it takes @key_base, @offset and @batch_size like
 * dbo.spinlab_disk_insert_batch, counts @batch_size inserts into that table's counters and returns status 0 without
 * running the contention model, which costs the simulator milliseconds of CPU per call and would make every client
 * look alike (the benchmark compares clients, not the model).
 */
function addBenchProcedure(sim: Simulator, database: string): void {
  const db = sim.model.database(database);
  if (!db) throw new Error(`bench: database ${database} is not there`);
  if (sim.model.findObject(db, BENCH_PROCEDURE)) return;
  sim.model.addObject(db, {
    name: BENCH_PROCEDURE,
    type: 'P',
    run: async (call) => {
      if (replyDelayMs > 0) await sleep(replyDelayMs, undefined, { signal: call.signal }).catch(() => undefined);
      const n = Number(call.params.get('@batch_size')?.value ?? 1);
      call.model.counters.table(db.name, 'dbo.spinlab_disk_insert').inserts += n;
      return [{ kind: 'returnStatus', value: 0 }];
    },
  });
}

async function main(): Promise<void> {
  const sim = await startSimulator({ password: BENCH_SIM_PASSWORD, log: () => undefined, seed: 7 });
  process.on('message', (m: Msg) => {
    if (m.kind === 'cpu') {
      const u = process.cpuUsage();
      toParent({ kind: 'cpu', user: u.user, system: u.system });
    } else if (m.kind === 'bench-procedure') {
      addBenchProcedure(sim, String(m.database));
      toParent({ kind: 'bench-procedure' });
    } else if (m.kind === 'bench-delay') {
      replyDelayMs = Number(m.ms);
      toParent({ kind: 'bench-delay' });
    }
  });
  toParent({ kind: 'listening', port: sim.port });
  await fromParent('stop');
  await sim.close();
  process.exit(0);
}

if (require.main === module) runRole(main);
