// `spinlab check` and the panel's report on connect: what this server is and which Spinlock Lab features will work on
// it with this login, each missing permission with its exact GRANT (sql/server/check.sql). Shape: CheckReport below,
// documented in docs/check.md; the JSON schema is schema/check-report.schema.json.
import type { DbSession } from '../db/client';
import { num, numOrNull, str, type Row } from '../db/rows';
import { isSimulator } from './server';
import { featureVersion, isManagedInstance, NEWEST_MAJOR_VERSION } from '../shared/serverLevel';
import { journalBlocker, journalLines, type CheckJournal } from './checkJournalText';

export const FEATURES = ['sample', 'deploy', 'affinity', 'delayed-durability', 'in-memory', 'watch', 'event-sessions'] as const;
export type FeatureId = (typeof FEATURES)[number];

const FEATURE_NAMES: Record<FeatureId, string> = {
  sample: 'Sample the DMVs during a run',
  deploy: 'Create the lab database and deploy scenarios',
  affinity: 'Change process affinity (and restore it)',
  'delayed-durability': 'Change delayed durability on the lab database (and restore it)',
  'in-memory': 'In-memory scenarios (memory-optimized tables, natively compiled procedures)',
  watch: 'Watch a server without running a workload',
  'event-sessions': 'Extended Events sessions',
};

export interface FeatureCheck {
  id: FeatureId;
  name: string;
  canRun: boolean;
  /** Why not, in words (empty when it can run). */
  reasons: string[];
  /** The exact statements that would let it run; empty when nothing can be granted (e.g. affinity on Azure). */
  grants: string[];
}

export interface CheckServer {
  majorVersion: number | null;
  productVersion: string;
  edition: string;
  engineEdition: number | null;
  /** What EngineEdition means, in words. */
  engineEditionName: string;
  platform: 'Windows' | 'Linux' | null;
  distribution: string | null;
  /** Null: no documented DMV column says whether SQL Server runs in a container (kept for a future source). */
  container: string | null;
  azure: 'sql-database' | 'managed-instance' | null;
  serviceTier: string | null;
  xtpSupported: boolean;
  defaultDataPath: string | null;
  login: string;
  simulated: boolean;
  labDatabase: string;
  labDatabaseExists: boolean;
}

export interface CheckReport {
  version: 1;
  server: CheckServer;
  /** False for a server Spinlock Lab does not support (before 2016, an unknown engine): `notes` says why. */
  supported: boolean;
  notes: string[];
  /** Effective permissions as the server reported them (null: not asked on this version, or no lab database yet). */
  permissions: { name: string; scope: 'SERVER' | 'DATABASE'; has: boolean | null }[];
  features: FeatureCheck[];
  /** The features asked about; `ok` is true when every one of them can run now (exit code 0). */
  asked: FeatureId[];
  ok: boolean;
  /** This machine's restore journal for the server (null: none); absent where it was not looked for (the panel). */
  journal?: CheckJournal | null;
  /** An experiment running now that changed no setting (one that did is the journal's), in words; null: none. */
  running?: string | null;
}

const ENGINE_EDITIONS: Record<number, string> = {
  1: 'Personal or Desktop Engine',
  2: 'Standard',
  3: 'Enterprise (also Developer and Evaluation)',
  4: 'Express',
  5: 'Azure SQL Database',
  6: 'Azure Synapse Analytics',
  8: 'Azure SQL Managed Instance',
  9: 'Azure SQL Edge',
  11: 'Azure Synapse serverless SQL pool',
  12: 'Microsoft Fabric SQL database',
};
const BOX = new Set([2, 3, 4]);

const q = (name: string) => `[${name.replace(/]/g, ']]')}]`;

/** The features a --feature list names; undefined (no list): every feature that applies to the server checked. */
export function parseFeatures(list: string | undefined): FeatureId[] | undefined {
  if (!list) return undefined;
  const out: FeatureId[] = [];
  for (const f of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!(FEATURES as readonly string[]).includes(f)) throw new Error(`unknown feature '${f}': one of ${FEATURES.join(', ')}`);
    out.push(f as FeatureId);
  }
  return out;
}

export async function checkServer(admin: DbSession, labDatabase: string, asked?: FeatureId[]): Promise<CheckReport> {
  const [[row] = [], perms = [], leftover = []] = await admin.runFile('server/check', { db: labDatabase });
  if (!row) throw new Error('server/check returned no row');
  return buildReport(row, perms, labDatabase, asked, leftover);
}

/**
 * The report from the result sets of sql/server/check.sql (pure: unit-tested without a server). `asked` undefined:
 * every feature that applies to this server (not process affinity on Azure SQL, which has none to set).
 */
export function buildReport(
  row: Row,
  permRows: Row[],
  labDatabase: string,
  askedFeatures: FeatureId[] | undefined,
  leftoverSessions: Row[] = [],
): CheckReport {
  const engineEdition = numOrNull(row.engine_edition);
  const platformText = row.host_platform === null || row.host_platform === undefined ? null : str(row.host_platform);
  const server: CheckServer = {
    majorVersion: numOrNull(row.major_version),
    productVersion: str(row.product_version),
    edition: str(row.edition),
    engineEdition,
    engineEditionName: engineEdition === null ? 'unknown' : (ENGINE_EDITIONS[engineEdition] ?? `unknown engine edition ${engineEdition}`),
    platform: platformText === null ? null : /linux/i.test(platformText) ? 'Linux' : /windows/i.test(platformText) ? 'Windows' : null,
    distribution: row.host_distribution === null || row.host_distribution === undefined ? null : str(row.host_distribution),
    container: row.container_type_desc === null || row.container_type_desc === undefined ? null : str(row.container_type_desc),
    azure: engineEdition === 5 ? 'sql-database' : engineEdition === 8 ? 'managed-instance' : null,
    serviceTier: row.service_tier === null || row.service_tier === undefined ? null : str(row.service_tier),
    xtpSupported: num(row.is_xtp_supported) === 1,
    defaultDataPath: row.default_data_path === null || row.default_data_path === undefined ? null : str(row.default_data_path),
    login: str(row.login_name),
    simulated: isSimulator(str(row.version_banner), str(row.edition)),
    labDatabase,
    labDatabaseExists: num(row.lab_db_exists) === 1,
  };
  const permissions = permRows.map((p) => ({
    name: str(p.permission_name),
    scope: (str(p.scope) === 'DATABASE' ? 'DATABASE' : 'SERVER') as 'SERVER' | 'DATABASE',
    has: p.has_permission === null || p.has_permission === undefined ? null : num(p.has_permission) === 1,
  }));
  const notes: string[] = [];
  let supported = true;
  const mi = isManagedInstance(engineEdition);
  // Permission names and features follow the SQL Server this engine behaves like: the newest on Managed Instance,
  // whose 12.x version does not compare with SQL Server's.
  const major = featureVersion(server);
  if (engineEdition === null || (!BOX.has(engineEdition) && !mi)) {
    supported = false;
    notes.push(
      engineEdition === 5
        ? 'Azure SQL Database is not supported: Spinlock Lab needs server-level DMVs and a lab database it creates, alters and drops on a SQL Server instance. Use SQL Server 2016 or later, or Azure SQL Managed Instance.'
        : `This engine (${server.engineEditionName}) is not one Spinlock Lab supports: use SQL Server 2016 or later (Windows or Linux), or Azure SQL Managed Instance.`,
    );
  } else if (!mi && (major === null || major < 13)) {
    supported = false;
    notes.push(
      `SQL Server ${server.productVersion || '(unknown version)'} is older than SQL Server 2016 (13.x), which Spinlock Lab needs (its DMV columns, DROP ... IF EXISTS, In-Memory OLTP as used here). Use SQL Server 2016 SP1 or later.`,
    );
  } else if (!mi && major !== null && major > NEWEST_MAJOR_VERSION) {
    notes.push(
      `SQL Server major version ${major} is newer than the versions Spinlock Lab was checked against (2016 to 2025): it should work, but nothing has verified it.`,
    );
  }
  if (mi) notes.push(...managedInstanceNotes(server.serviceTier));
  if (server.container) notes.push(`Running in a container (${server.container}): CPU and NUMA figures are the container's view.`);
  if (server.simulated) notes.push('This is the Spinlock Lab simulator: its numbers are synthetic, not measurements.');
  if (leftoverSessions.length) {
    const names = leftoverSessions.map((r) => `${str(r.name)}${num(r.running) === 1 ? ' (running)' : ''}`);
    notes.push(
      `Spinlock Lab event sessions are left on this server: ${names.join(', ')}. A stack capture that was killed leaves one; \`spinlab restore\` drops those its journal names once their process is gone, or drop one by hand with DROP EVENT SESSION [name] ON SERVER; when no capture is running.`,
    );
  }

  const has = (name: string, scope: 'SERVER' | 'DATABASE' = 'SERVER') =>
    permissions.find((p) => p.name === name && p.scope === scope)?.has ?? null;
  const who = q(server.login);
  const dbq = q(labDatabase);
  const features = FEATURES.map((id): FeatureCheck => {
    const f: FeatureCheck = { id, name: FEATURE_NAMES[id], canRun: true, reasons: [], grants: [] };
    const no = (reason: string, grant?: string) => {
      f.canRun = false;
      f.reasons.push(reason);
      if (grant && !f.grants.includes(grant)) f.grants.push(grant);
    };
    if (!supported) {
      no('this server is not one Spinlock Lab supports (see the notes).');
      return f;
    }
    const serverState = () => {
      if (major !== null && major >= 16) {
        // VIEW SERVER STATE covers it; asked apart in case a server does not know the finer name (NULL from HAS_PERMS_BY_NAME).
        if (has('VIEW SERVER PERFORMANCE STATE') !== true && has('VIEW SERVER STATE') !== true)
          no(
            'needs VIEW SERVER PERFORMANCE STATE (SQL Server 2022+; VIEW SERVER STATE includes it).',
            `USE master; GRANT VIEW SERVER PERFORMANCE STATE TO ${who};`,
          );
      } else if (has('VIEW SERVER STATE') !== true) {
        no('needs VIEW SERVER STATE.', `USE master; GRANT VIEW SERVER STATE TO ${who};`);
      }
    };
    const labAccess = (perm: string, why: string) => {
      if (server.labDatabaseExists) {
        if (has(perm, 'DATABASE') !== true)
          no(
            `needs ${perm} on the lab database ${dbq} (${why}).`,
            `USE ${dbq}; GRANT ${perm} TO <the login's user in ${dbq}>;  -- or make it db_owner there`,
          );
      } else if (has('CREATE ANY DATABASE') !== true) {
        no(
          `the lab database ${dbq} does not exist and this login cannot create it (CREATE ANY DATABASE); whoever creates it owns it.`,
          `USE master; GRANT CREATE ANY DATABASE TO ${who};`,
        );
      }
    };
    switch (id) {
      case 'sample':
        serverState();
        if (server.labDatabaseExists) {
          const dbPerm = major !== null && major >= 16 ? 'VIEW DATABASE PERFORMANCE STATE' : 'VIEW DATABASE STATE';
          if (has(dbPerm, 'DATABASE') !== true)
            no(`needs ${dbPerm} on ${dbq} (the sys.dm_db_* views).`, `USE ${dbq}; GRANT ${dbPerm} TO <the login's user in ${dbq}>;`);
        }
        break;
      case 'deploy':
        labAccess('CREATE TABLE', 'scenario tables');
        if (server.labDatabaseExists) {
          if (has('CREATE PROCEDURE', 'DATABASE') !== true)
            no(`needs CREATE PROCEDURE on ${dbq}.`, `USE ${dbq}; GRANT CREATE PROCEDURE TO <the login's user in ${dbq}>;`);
          if (has('ALTER', 'DATABASE') !== true)
            no(
              `needs ALTER on ${dbq} (the dbo schema and the In-Memory filegroup).`,
              `GRANT ALTER ON DATABASE::${dbq} TO <the login's user in ${dbq}>;`,
            );
        }
        break;
      case 'affinity':
        if (server.azure) {
          no('process affinity cannot be changed on Azure SQL (ALTER SERVER CONFIGURATION SET PROCESS AFFINITY is not available there).');
          break;
        }
        if (has('ALTER SETTINGS') !== true)
          no('needs ALTER SETTINGS (sysadmin and serveradmin have it).', `USE master; GRANT ALTER SETTINGS TO ${who};`);
        serverState();
        break;
      case 'delayed-durability':
        labAccess('ALTER', 'ALTER DATABASE ... SET DELAYED_DURABILITY');
        break;
      case 'in-memory':
        if (!server.xtpSupported) no("this instance does not support In-Memory OLTP (SERVERPROPERTY('IsXTPSupported') is not 1).");
        if (server.azure === 'managed-instance' && !/business ?critical/i.test(server.serviceTier ?? '')) {
          no(
            `In-Memory OLTP on Azure SQL Managed Instance needs the Business Critical tier (this one: ${server.serviceTier ?? 'unknown'}).`,
          );
        }
        if (!server.azure && server.defaultDataPath === null)
          no("SERVERPROPERTY('InstanceDefaultDataPath') is NULL, so there is nowhere to put the memory-optimized container.");
        labAccess('ALTER', mi ? 'memory-optimized tables in it' : 'adding the MEMORY_OPTIMIZED_DATA filegroup');
        break;
      case 'watch':
        serverState();
        break;
      case 'event-sessions': {
        // Microsoft Learn, CREATE/ALTER/DROP EVENT SESSION: ALTER ANY EVENT SESSION covers all three; from SQL Server
        // 2022 CREATE ANY EVENT SESSION, ALTER ANY EVENT SESSION ENABLE (to start) and DROP ANY EVENT SESSION suffice.
        const fine = ['CREATE ANY EVENT SESSION', 'ALTER ANY EVENT SESSION ENABLE', 'DROP ANY EVENT SESSION'];
        const finer = major !== null && major >= 16 && fine.every((p) => has(p) === true);
        if (has('ALTER ANY EVENT SESSION') !== true && !finer) {
          if (major !== null && major >= 16) {
            no(
              `needs ALTER ANY EVENT SESSION, or on SQL Server 2022+ all of ${fine.join(', ')} (missing: ${fine.filter((p) => has(p) !== true).join(', ')}).`,
              `USE master; GRANT ALTER ANY EVENT SESSION TO ${who};  -- or: GRANT ${fine.join(', ')} TO ${who};`,
            );
          } else no('needs ALTER ANY EVENT SESSION.', `USE master; GRANT ALTER ANY EVENT SESSION TO ${who};`);
        }
        serverState(); // reading the histogram target (sys.dm_xe_session_targets)
        break;
      }
    }
    return f;
  });
  if (supported && server.xtpSupported && server.defaultDataPath && !server.azure) {
    notes.push(
      `The memory-optimized container would go to ${server.defaultDataPath}${labDatabase}_xtp (the instance's default data path).`,
    );
  }
  const asked = askedFeatures ?? FEATURES.filter((f) => !(f === 'affinity' && server.azure));
  if (!askedFeatures && server.azure)
    notes.push('Process affinity is not asked here (it cannot be set on Azure SQL); name it with --feature affinity to make it count.');
  const ok = asked.every((a) => features.find((f) => f.id === a)?.canRun);
  return { version: 1, server, supported, notes, permissions, features, asked, ok };
}

/**
 * What differs on Azure SQL Managed Instance, from "T-SQL differences between SQL Server & Azure SQL Managed Instance"
 * (ALTER DATABASE and CREATE DATABASE statements, Tables, Stored procedures) and ALTER SERVER CONFIGURATION (SQL
 * Server only), and what the product does instead.
 */
export function managedInstanceNotes(serviceTier: string | null): string[] {
  return [
    "Azure SQL Managed Instance: versionless (its 12.x version does not compare with SQL Server's), so Spinlock Lab treats it as the newest SQL Server for permission names and features.",
    'Managed Instance refuses ALTER DATABASE ... SET RECOVERY SIMPLE: the lab database stays in FULL recovery (the service backs up its log), so its log grows with the workload between log backups.',
    'Managed Instance refuses SET SINGLE_USER: dropping the lab database ends the sessions in it first (KILL, which needs ALTER ANY CONNECTION), then drops it.',
    'Managed Instance creates the memory-optimized filegroup (XTP) in every database itself and refuses to add or alter one; Spinlock Lab uses that one.',
    `Managed Instance cannot change process affinity (ALTER SERVER CONFIGURATION is SQL Server only): the affinity presets and --affinity do not run there. In-Memory OLTP needs the Business Critical tier (this one: ${serviceTier ?? 'unknown'}).`,
    'Managed Instance names database performance counters by sys.databases.physical_database_name (a GUID) in instance_name: Spinlock Lab matches both names and reports the database by its name.',
  ];
}

/** The report as text for a terminal. */
export function checkText(r: CheckReport): string {
  const s = r.server;
  const lines: string[] = [];
  const product = isManagedInstance(s.engineEdition) ? 'Azure SQL Managed Instance' : `SQL Server ${s.majorVersion ?? '?'}`;
  lines.push(`Server: ${product} (${s.productVersion}), ${s.edition}; EngineEdition ${s.engineEdition ?? '?'} = ${s.engineEditionName}`);
  lines.push(
    `Platform: ${s.platform ?? 'unknown'}${s.distribution ? ` (${s.distribution})` : ''}${s.container ? `; container ${s.container}` : ''}${s.azure ? `; ${s.azure === 'managed-instance' ? 'Azure SQL Managed Instance' : 'Azure SQL Database'}${s.serviceTier ? ` (${s.serviceTier})` : ''}` : ''}`,
  );
  lines.push(`In-Memory OLTP: ${s.xtpSupported ? 'supported' : 'not supported'}; default data path: ${s.defaultDataPath ?? 'NULL'}`);
  lines.push(`Login: ${s.login}; lab database [${s.labDatabase}]: ${s.labDatabaseExists ? 'exists' : 'not created yet'}`);
  for (const n of r.notes) lines.push(`Note: ${n}`);
  lines.push(...journalLines(r));
  lines.push('');
  for (const f of r.features) {
    const asked = r.asked.includes(f.id) ? '' : ' (not asked)';
    lines.push(`${f.canRun ? '  ok ' : '  NO '} ${f.id.padEnd(19)} ${f.name}${asked}`);
    for (const why of f.reasons) lines.push(`        ${why}`);
    for (const g of f.grants) lines.push(`        fix: ${g}`);
  }
  lines.push('');
  const cannot = r.features.filter((f) => r.asked.includes(f.id) && !f.canRun).map((f) => f.id);
  const blocker = r.asked.some((f) => f !== 'watch') ? journalBlocker(r) : null;
  lines.push(
    r.ok
      ? 'Everything asked for can run.'
      : `Not everything asked for can run${blocker ? ' now' : ''}: ${[...(cannot.length ? [cannot.join(', ')] : []), ...(blocker ? [blocker] : [])].join('; ')}.`,
  );
  return lines.join('\n') + '\n';
}
