// `spinlab sim --background SCENARIO:SESSIONS`: a synthetic workload of the simulator's own, so that a monitor
// (`spinlab watch`) has moving DMVs to look at without running anything itself. The sessions run inside the model
// (no TDS client): each is a workload call that never ends until the simulator closes, in a database the simulator
// owns from startup (SpinlabSimBackground), so everything a watcher sees is there before it connects. Synthetic, as
// every number the simulator serves.
import { setMaxListeners } from 'node:events';
import type { WorkloadProfile } from './contention';
import type { BackgroundSession, Database, SimModel } from './instance';

export interface BackgroundSpec {
  scenario: 'disk-insert' | 'inmem-insert' | 'ring-buffer';
  sessions: number;
}

export const BACKGROUND_DATABASE = 'SpinlabSimBackground';
/** Background sessions get spids far above the wire sessions' (which count from 51). */
export const FIRST_BACKGROUND_SPID = 1000;
const SCENARIOS = ['disk-insert', 'inmem-insert', 'ring-buffer'] as const;

/** 'disk-insert:8' -> { scenario, sessions }; throws a message saying what is wrong. */
export function parseBackground(spec: string): BackgroundSpec {
  const m = /^([a-z-]+):(\d+)$/.exec(spec.trim());
  if (!m) throw new Error(`--background must be SCENARIO:SESSIONS (e.g. disk-insert:8), not '${spec}'`);
  if (!(SCENARIOS as readonly string[]).includes(m[1]))
    throw new Error(`--background: unknown scenario '${m[1]}' (one of: ${SCENARIOS.join(', ')})`);
  const sessions = Number(m[2]);
  if (sessions < 1 || sessions > 4096) throw new Error(`--background: SESSIONS must be 1 to 4096, not ${sessions}`);
  return { scenario: m[1] as BackgroundSpec['scenario'], sessions };
}

interface Shape {
  table: string;
  profile: WorkloadProfile;
  memoryOptimized: boolean;
  text: string;
}

function shapeOf(scenario: BackgroundSpec['scenario']): Shape {
  const base = { rowsPerTxn: 1, slotSource: 'none', tableDurability: 'SCHEMA_AND_DATA' } as const;
  switch (scenario) {
    case 'disk-insert':
      return {
        table: 'dbo.spinlab_disk_insert',
        memoryOptimized: false,
        text: 'EXEC dbo.spinlab_disk_insert_loop @rows = NULL, @run_ms = NULL, @batch_size = 1',
        profile: { ...base, engine: 'disk', access: 'interpreted', operation: 'insert' },
      };
    case 'inmem-insert':
      return {
        table: 'dbo.spinlab_inmem_insert',
        memoryOptimized: true,
        text: 'EXEC dbo.spinlab_inmem_insert_loop_interpreted @rows = NULL, @run_ms = NULL, @batch_size = 1',
        profile: { ...base, engine: 'xtp', access: 'interpreted', operation: 'insert' },
      };
    case 'ring-buffer':
      return {
        table: 'dbo.spinlab_ring_slots',
        memoryOptimized: false,
        text: "EXEC dbo.spinlab_ring_loop @rows = NULL, @run_ms = NULL, @mode = N'push-pop'",
        profile: { ...base, engine: 'disk', access: 'interpreted', operation: 'push', slotSource: 'sequence' },
      };
  }
}

/** Starts the background sessions; returns a stop function (the simulator calls it on close). */
export function startBackground(model: SimModel, specs: readonly BackgroundSpec[]): () => void {
  if (specs.length === 0) return () => undefined;
  const db: Database = model.database(BACKGROUND_DATABASE) ?? model.createDatabase(BACKGROUND_DATABASE);
  db.properties.set('spinlab_simulator_background', 'synthetic workload of the Spinlock Lab simulator');
  const ac = new AbortController();
  setMaxListeners(0, ac.signal); // one listener per session's call: thousands are expected
  let spid = FIRST_BACKGROUND_SPID;
  model.workloads.batch(() => start());
  // Stopping ends every session's call at once: one rate refresh for all of them too.
  return () => model.workloads.batch(() => ac.abort());

  function start(): void {
    for (const spec of specs) {
      const shape = shapeOf(spec.scenario);
      if (shape.memoryOptimized) db.hasXtpFilegroup = true;
      if (!model.findObject(db, shape.table))
        model.addObject(db, { name: shape.table, type: 'U', memoryOptimized: shape.memoryOptimized || undefined });
      for (let i = 0; i < spec.sessions; i++) {
        const s: BackgroundSession = {
          spid: spid++,
          scenario: spec.scenario,
          database: db.name,
          text: shape.text,
          startedAt: new Date(model.clock.now()),
        };
        model.background.set(s.spid, s);
        model.sessionStarted(s.spid, 'spinlab_background');
        const run = () => {
          if (ac.signal.aborted) return;
          // A restart of the instance ends every call; the background sessions log in again, as an application would.
          void model
            .runWorkload(
              { spid: s.spid } as Parameters<SimModel['runWorkload']>[0],
              db,
              shape.table,
              shape.profile,
              { rows: null, durationMs: null },
              ac.signal,
            )
            .then(() => {
              if (!ac.signal.aborted) setTimeout(run, 100).unref();
            });
        };
        run();
      }
    }
  }
}
