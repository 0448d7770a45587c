// What one delta tick costs the server, before and after OPTION (KEEPFIXED PLAN): statement recompilations, the
// monitor session's CPU, logical reads and page writes per tick, as the simulator counts them from its model of SQL
// Server's rules (model/planCost.ts: a #temp table's recompilation thresholds; KEEPFIXED PLAN skips them). "before"
// is the tick as it was (bench/fixtures/*-before-keepfixed.sql), registered in the in-process simulator as the same
// file so the same handler answers it; "after" is the tick in sql/. On a manual clock with the simulator's own
// workload, so every tick sees moving DMVs. Run: node out/bench/monitorCost.js [ticks]. Synthetic figures.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as sql from 'mssql';
import { loadSqlFile, parseSqlFile } from '../src/db/sqlFiles';
import { startSimulator, type Simulator } from '../tools/sim/simulator';
import { ManualClock } from '../tools/sim/model/clock';
import { startBackground } from '../tools/sim/model/background';
import { sessionCost } from '../tools/sim/model/custom';

export type TickFile = 'watch/tick-delta' | 'dmv/sample-delta';
export type TickVersion = 'before' | 'after';

export interface TickCostFigures {
  file: TickFile;
  version: TickVersion;
  ticks: number;
  /** Per tick, averaged over the measured ticks (the first two, which compile the statements, left out). */
  recompilesPerTick: number;
  compilationsPerTick: number;
  cpuMsPerTick: number;
  logicalReadsPerTick: number;
  writesPerTick: number;
}

const FIXTURE: Record<TickFile, string> = {
  'watch/tick-delta': 'tick-delta-before-keepfixed.sql',
  'dmv/sample-delta': 'sample-delta-before-keepfixed.sql',
};

/** The tick's text: the one in sql/ (after), or the saved one from before (the simulator runs either as it arrives). */
function tickText(file: TickFile, version: TickVersion): { text: string; parameters: string } {
  if (version === 'after') {
    const f = loadSqlFile(file);
    return { text: f.batches[0], parameters: f.parameters };
  }
  const dir = [path.join(__dirname, 'fixtures'), path.join(__dirname, '..', '..', 'bench', 'fixtures')].find((d) =>
    fs.existsSync(path.join(d, FIXTURE[file])),
  );
  if (!dir) throw new Error(`bench/fixtures/${FIXTURE[file]} not found`);
  const f = parseSqlFile(file, fs.readFileSync(path.join(dir, FIXTURE[file]), 'utf8'));
  return { text: f.batches[0], parameters: f.parameters };
}

/** Runs `ticks` ticks of one version on one monitor connection and returns the per-tick cost. */
export async function measureTickCost(file: TickFile, version: TickVersion, ticks = 30): Promise<TickCostFigures> {
  const clock = new ManualClock();
  const sim: Simulator = await startSimulator({ clock, log: () => undefined, password: 'Bench-Pw1!' });
  const stop = startBackground(sim.model, [{ scenario: 'disk-insert', sessions: 8 }]);
  const pool = await new sql.ConnectionPool({
    server: sim.host,
    port: sim.port,
    user: 'sa',
    password: 'Bench-Pw1!',
    database: 'master',
    options: { encrypt: false, trustServerCertificate: true },
    pool: { min: 1, max: 1 },
  }).connect();
  try {
    const { text, parameters } = tickText(file, version);
    const spid = Number((await pool.request().query('SELECT @@SPID AS spid')).recordset[0].spid);
    await pool.request().batch(loadSqlFile('dmv/snapshot-setup').batches[0]);
    const prep = pool.request();
    prep.output('handle', sql.Int);
    prep.input('params', sql.NVarChar(sql.MAX), parameters || null);
    prep.input('stmt', sql.NVarChar(sql.MAX), text);
    prep.input('options', sql.Int, 1);
    const handle = Number((await prep.execute('sp_prepare')).output.handle);
    const tick = async () => {
      clock.advance(1000);
      const r = pool.request();
      r.input('handle', sql.Int, handle);
      if (file === 'dmv/sample-delta') {
        r.input('db', sql.NVarChar(128), 'SpinlabSimBackground');
        // The saved tick from before KEEPFIXED PLAN predates @db_physical (Managed Instance's counter names).
        if (/@db_physical\b/.test(parameters)) r.input('db_physical', sql.NVarChar(128), null);
      } else {
        r.input('top_requests', sql.Int, 10);
        r.input('text_chars', sql.Int, 100);
      }
      await r.execute('sp_execute');
    };
    await tick();
    await tick();
    const cost = sessionCost(sim.model, spid);
    const c0 = { ...cost, re: sim.model.counters.recompilations, co: sim.model.counters.compilations };
    for (let i = 0; i < ticks; i++) await tick();
    const per = (v: number) => v / ticks;
    return {
      file,
      version,
      ticks,
      recompilesPerTick: per(sim.model.counters.recompilations - c0.re),
      compilationsPerTick: per(sim.model.counters.compilations - c0.co),
      cpuMsPerTick: per(cost.cpuMs - c0.cpuMs),
      logicalReadsPerTick: per(cost.logicalReads - c0.logicalReads),
      writesPerTick: per(cost.writes - c0.writes),
    };
  } finally {
    stop();
    await pool.close();
    await sim.close();
  }
}

if (require.main === module) {
  const ticks = Number(process.argv[2] ?? 30);
  (async () => {
    for (const file of ['watch/tick-delta', 'dmv/sample-delta'] as TickFile[]) {
      for (const version of ['before', 'after'] as TickVersion[]) {
        const f = await measureTickCost(file, version, ticks);
        process.stdout.write(
          `${file} ${version.padEnd(6)} ${ticks} ticks: ${f.recompilesPerTick.toFixed(2)} recompiles, ${f.compilationsPerTick.toFixed(2)} compilations, ` +
            `${f.cpuMsPerTick.toFixed(2)} ms CPU, ${f.logicalReadsPerTick.toFixed(1)} logical reads, ${f.writesPerTick.toFixed(1)} page writes per tick (simulator, synthetic)\n`,
        );
      }
    }
  })().catch((e) => {
    process.stderr.write(`${(e as Error).stack}\n`);
    process.exit(1);
  });
}
