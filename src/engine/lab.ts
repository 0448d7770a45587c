// The dedicated lab database: created and marked by Spinlock Lab, refused if it exists without the mark; scenario
// deploy and cleanup run inside it.
import { DbSession } from '../db/client';
import type { DbTarget } from '../db/target';
import { parseParameterDeclaration } from '../db/params';
import { str } from '../db/rows';
import type { ParamValue } from '../shared/experiment';
import type { ServerIdentity } from '../shared/types';
import { explain, numbers, SpinlabError } from './errors';
import { cleanupSteps, deploySteps, listScenarios, needsXtp, type ScenarioManifest } from './scenarios';
import { labDatabaseLengthProblem } from './identifiers';
import { loadSqlFile } from '../db/sqlFiles';
import { withLabLock } from './labLock';
import pkg from '../../package.json';
import { featureVersion, isManagedInstance } from '../shared/serverLevel';
import { labDatabaseProblem } from '../shared/labDatabase';

export const DEFAULT_LAB_DATABASE = 'SpinlockLab';
export const TOOL_VERSION: string = pkg.version;

export interface LabProbe {
  exists: boolean;
  ours: boolean;
  hasXtp: boolean;
  delayedDurability: string | null;
  /** recovery_model_desc: SIMPLE as created, except on Managed Instance (FULL, which it will not change). */
  recovery: string | null;
}

export async function probeLab(admin: DbSession, db: string): Promise<LabProbe> {
  const [[row] = []] = await admin.runFile('lab/probe', { db });
  if (!row) return { exists: false, ours: false, hasXtp: false, delayedDurability: null, recovery: null };
  return {
    exists: true,
    ours: row.spinlab_mark !== null && row.spinlab_mark !== undefined,
    hasXtp: row.has_xtp_filegroup === true || Number(row.has_xtp_filegroup) === 1,
    delayedDurability: str(row.delayed_durability_desc) || null,
    recovery: str(row.recovery_model_desc) || null,
  };
}

/** The CLI refuses these before connecting; this keeps every other caller (the panel, a notebook) from using one. */
function refuseSystemDatabase(db: string): void {
  const problem = labDatabaseProblem(db);
  if (problem)
    throw new SpinlabError('user-input', problem, 'choose a lab database of its own (--lab-db NAME, or the lab database setting).');
}

/** Makes sure the lab database exists and is ours; creates it when missing, and says what it could not set there. */
export async function ensureLab(
  admin: DbSession,
  db: string,
  identity: ServerIdentity,
  log: (m: string) => void = () => undefined,
): Promise<LabProbe> {
  refuseSystemDatabase(db);
  const tooLong = labDatabaseLengthProblem(db);
  if (tooLong) throw new SpinlabError('user-input', tooLong, 'pass a shorter name with --lab-db NAME (or the lab database setting).');
  let probe = await probeLab(admin, db);
  if (probe.exists && !probe.ours) {
    throw new SpinlabError(
      'server',
      `The database [${db}] exists but Spinlock Lab did not create it (it has no SpinlockLab extended property), so Spinlock Lab will not touch it.`,
      'choose another lab database name (--lab-db NAME), or drop that database yourself if it is a leftover.',
    );
  }
  if (!probe.exists) {
    try {
      await admin.runFile('lab/create', { db, mark: `Created by Spinlock Lab ${TOOL_VERSION} on ${new Date().toISOString()}` });
    } catch (err) {
      throw explain(err, `Creating the lab database [${db}]`, {
        login: identity.login,
        majorVersion: featureVersion(identity),
        needs: 'CREATE DATABASE',
      });
    }
    probe = await probeLab(admin, db);
    if (probe.recovery !== 'SIMPLE') log(labRecoveryNote(db, probe.recovery, identity));
  }
  return probe;
}

/** Why the new lab database is not in SIMPLE recovery (sql/lab/create.sql leaves it so on Managed Instance). */
export function labRecoveryNote(db: string, recovery: string | null, identity: Pick<ServerIdentity, 'engineEdition'>): string {
  return isManagedInstance(identity.engineEdition)
    ? `the lab database [${db}] stays in ${recovery ?? 'FULL'} recovery: Azure SQL Managed Instance refuses SET RECOVERY SIMPLE (its service backs up the log), so the log grows with the workload between its log backups.`
    : `the lab database [${db}] is in ${recovery ?? 'an unknown'} recovery, not SIMPLE as created: its log grows with the workload until the log is backed up.`;
}

/** Sessions ended before a drop, at most: a lab left with more sessions than this is ended by the drop's retries. */
const MAX_SESSIONS_ENDED = 256;

/**
 * Ends the sessions using the lab database, one at a time as lab/holder names them (Managed Instance, which refuses
 * SINGLE_USER's ROLLBACK IMMEDIATE that ends them elsewhere). Returns the sessions it ended.
 */
async function endLabSessions(admin: DbSession, db: string, identity: ServerIdentity): Promise<number[]> {
  const killed: number[] = [];
  while (killed.length < MAX_SESSIONS_ENDED) {
    const [[holder] = []] = await admin.runFile('lab/holder', { db });
    const spid = holder ? Number(holder.session_id) : NaN;
    if (!Number.isInteger(spid) || killed.includes(spid)) break;
    await killHolder(admin, db, spid, identity);
    killed.push(spid);
  }
  return killed;
}

async function killHolder(admin: DbSession, db: string, spid: number, identity: ServerIdentity): Promise<void> {
  try {
    await admin.runFile('lab/kill', { spid });
  } catch (killErr) {
    throw explain(killErr, `Ending session ${spid}, which holds the lab database [${db}] open`, {
      login: identity.login,
      majorVersion: featureVersion(identity),
      needs: 'ALTER ANY CONNECTION',
    });
  }
}

/** DROP failed because another session took the single-user slot (3702 in use, 5064 could not change state). */
const SLOT_TAKEN = [3702, 5064];
export const DROP_ATTEMPTS = 5;

/**
 * Drops the lab database (only one Spinlock Lab marked). Between SET SINGLE_USER and DROP the one connection allowed
 * in can be taken by someone else (a monitor whose pool reconnects into the database, or a session elsewhere whose
 * transaction works in it): the drop then fails with 3702 or 5064, so the user session holding it (sql/lab/holder.sql)
 * is ended (KILL: ALTER ANY CONNECTION) and the drop tried again, a few times.
 * Returns whether the database existed, and the sessions it ended.
 */
export function dropLab(admin: DbSession, db: string, identity: ServerIdentity): Promise<{ existed: boolean; killed: number[] }> {
  refuseSystemDatabase(db);
  return withLabLock(admin, db, `Dropping the lab database [${db}]`, () => dropLabUnlocked(admin, db, identity));
}

async function dropLabUnlocked(admin: DbSession, db: string, identity: ServerIdentity): Promise<{ existed: boolean; killed: number[] }> {
  const probe = await probeLab(admin, db);
  if (!probe.exists) return { existed: false, killed: [] };
  // Managed Instance refuses SET SINGLE_USER (sql/lab/drop.sql drops without it there): end the lab's sessions first.
  const killed: number[] = isManagedInstance(identity.engineEdition) ? await endLabSessions(admin, db, identity) : [];
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.runFile('lab/drop', { db });
      return { existed: true, killed };
    } catch (err) {
      const nums = numbers(err);
      if (!SLOT_TAKEN.some((n) => nums.includes(n)) || attempt >= DROP_ATTEMPTS) {
        throw explain(err, `Dropping the lab database [${db}]`, {
          login: identity.login,
          majorVersion: featureVersion(identity),
          needs: 'ALTER ANY DATABASE',
        });
      }
      const [[holder] = []] = await admin.runFile('lab/holder', { db });
      const spid = holder ? Number(holder.session_id) : NaN;
      // No user session holds it (a system task, or the holder already left): give it a moment before the next try.
      if (!Number.isInteger(spid)) {
        await new Promise((r) => setTimeout(r, 250 * attempt));
        continue;
      }
      await killHolder(admin, db, spid, identity);
      killed.push(spid);
    }
  }
}

/** Binds a file's declared parameters by name from the scenario's values. */
export function fileParams(id: string, values: Record<string, ParamValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name] of parseParameterDeclaration(loadSqlFile(id).parameters)) {
    if (!(name in values)) throw new Error(`sql/${id}.sql needs @${name}, which the scenario does not define`);
    out[name] = values[name];
  }
  return out;
}

/** Scenarios whose tables are in the lab database (sql/lab/tables.sql): a scenario counts when any of its tables is there. */
export async function deployedScenarios(admin: DbSession, db: string): Promise<string[]> {
  const [rows = []] = await admin.runFile('lab/tables', { db });
  const present = new Set(rows.map((r) => str(r.table_name).toLowerCase()));
  return listScenarios()
    .filter((s) => s.progress.tables.some((t) => present.has(t.toLowerCase())))
    .map((s) => s.id);
}

/** Deploys holding the lab's lock: refused while another experiment runs there (re-entrant inside the experiment's own). */
export function deployScenario(
  target: DbTarget,
  admin: DbSession,
  identity: ServerIdentity,
  db: string,
  scenario: ScenarioManifest,
  values: Record<string, ParamValue>,
  log: (m: string) => void,
  signal?: AbortSignal,
  warn: (m: string) => void = log,
): Promise<void> {
  return withLabLock(admin, db, `Deploying ${scenario.id} into [${db}]`, () =>
    deployUnlocked(target, admin, identity, db, scenario, values, log, signal, warn),
  );
}

async function deployUnlocked(
  target: DbTarget,
  admin: DbSession,
  identity: ServerIdentity,
  db: string,
  scenario: ScenarioManifest,
  values: Record<string, ParamValue>,
  log: (m: string) => void,
  signal: AbortSignal | undefined,
  warn: (m: string) => void,
): Promise<void> {
  const probe = await ensureLab(admin, db, identity, warn);
  if (needsXtp(scenario, values)) {
    if (!identity.xtpSupported) {
      throw new SpinlabError(
        'server',
        `The scenario ${scenario.id} with these settings needs In-Memory OLTP, which this instance does not support.`,
        "use a SQL Server 2016 SP1+ edition with In-Memory OLTP (SERVERPROPERTY('IsXTPSupported') = 1), or choose disk-based settings.",
      );
    }
    if (!probe.hasXtp) {
      log(`adding a MEMORY_OPTIMIZED_DATA filegroup to [${db}]`);
      await admin.runFile('lab/add-xtp-filegroup', { db }, signal).catch((err) => {
        throw explain(err, 'Adding the memory-optimized filegroup', {
          login: identity.login,
          majorVersion: featureVersion(identity),
          needs: `ALTER ON DATABASE::[${db}]`,
        });
      });
    }
  }
  const lab = await DbSession.open(target, { database: db, appName: 'Spinlock Lab' });
  try {
    await lab.runFile('lab/common');
    for (const id of deploySteps(scenario, values)) {
      log(`running sql/${id}.sql`);
      await lab.runFile(id, fileParams(id, values), signal).catch((err) => {
        throw explain(err, `Deploying ${scenario.id} (sql/${id}.sql)`, {
          login: identity.login,
          majorVersion: featureVersion(identity),
          database: db,
        });
      });
    }
  } finally {
    await lab.close();
  }
}

/** What a cleanup found: no lab database, a lab without the scenario's tables (nothing run), or the scenario removed. */
export type CleanupResult = 'no-lab' | 'not-deployed' | 'removed';

export function cleanupScenario(
  target: DbTarget,
  admin: DbSession,
  identity: ServerIdentity,
  db: string,
  scenario: ScenarioManifest,
  values: Record<string, ParamValue>,
  log: (m: string) => void,
): Promise<CleanupResult> {
  return withLabLock(admin, db, `Removing ${scenario.id} from [${db}]`, () =>
    cleanupUnlocked(target, admin, identity, db, scenario, values, log),
  );
}

async function cleanupUnlocked(
  target: DbTarget,
  admin: DbSession,
  identity: ServerIdentity,
  db: string,
  scenario: ScenarioManifest,
  values: Record<string, ParamValue>,
  log: (m: string) => void,
): Promise<CleanupResult> {
  const probe = await probeLab(admin, db);
  if (!probe.exists) return 'no-lab';
  if (!probe.ours) throw new SpinlabError('server', `The database [${db}] is not Spinlock Lab's; nothing was removed.`);
  if (!(await deployedScenarios(admin, db)).includes(scenario.id)) return 'not-deployed';
  const lab = await DbSession.open(target, { database: db, appName: 'Spinlock Lab' });
  try {
    for (const id of cleanupSteps(scenario, values)) {
      log(`running sql/${id}.sql`);
      await lab.runFile(id, fileParams(id, values));
    }
  } finally {
    await lab.close();
  }
  return 'removed';
}
