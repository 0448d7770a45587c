// Starting the simulator and connecting to it through the real driver (mssql/tedious) for integration tests.
import * as sql from 'mssql';
import { startSimulator, Simulator, SimulatorOptions } from '../../tools/sim/simulator';
import { loadSqlFile } from '../../src/db/sqlFiles';

export const SIM_PASSWORD = 'Sim-Test-Pw1!';

export async function withSim<T>(opts: SimulatorOptions, fn: (sim: Simulator) => Promise<T>): Promise<T> {
  const sim = await startSimulator({ password: SIM_PASSWORD, log: () => {}, ...opts });
  try {
    return await fn(sim);
  } finally {
    await sim.close();
  }
}

export async function connect(sim: Simulator, user = 'sa', password = SIM_PASSWORD, database?: string): Promise<sql.ConnectionPool> {
  return new sql.ConnectionPool({
    server: sim.host,
    port: sim.port,
    user,
    password,
    database,
    options: { encrypt: false, trustServerCertificate: true },
    pool: { min: 0, max: 40 },
    requestTimeout: 60_000,
  }).connect();
}

/** A result row by column name, as a test reads the driver's untyped record sets (cast to Row[][]). */
/** Spinlock Lab's event sessions (SpinlockLab_...) as another connection sees them in sys.server_event_sessions. */
export async function ourEventSessions(sim: Simulator): Promise<string[]> {
  const pool = await connect(sim);
  try {
    const r = await pool.request().query('SELECT name FROM sys.server_event_sessions');
    return (r.recordset as { name: string }[]).map((x) => x.name).filter((n) => n.startsWith('SpinlockLab_'));
  } finally {
    await pool.close();
  }
}

export type Row = Record<string, unknown>;

/** Runs a sql/ file's batch the way the engine does: plain batch, or sp_executesql with typed parameters. */
export async function runFile(
  pool: sql.ConnectionPool | sql.Transaction,
  id: string,
  params: Record<string, [sql.ISqlType | (() => sql.ISqlType), unknown]> = {},
  batch = 0,
) {
  const f = loadSqlFile(id);
  const req = new sql.Request(pool as sql.ConnectionPool);
  for (const [name, [type, value]] of Object.entries(params)) req.input(name, type, value);
  return req.query(f.batches[batch]);
}
