// The model operations behind CREATE/ALTER/DROP DATABASE and ALTER SERVER CONFIGURATION SET PROCESS AFFINITY, as the
// executor's DDL (run.ts) runs them: each refused where SQL Server or Azure SQL Managed Instance refuses it.
import { alterSettingsDenied, err, SqlError } from '../errors';
import type { Database, SimModel } from '../instance';
import { AffinityError } from '../topology';

/**
 * What Managed Instance refuses of what the product (or a user) sends. The T-SQL differences page names the options
 * ("can't be modified": RECOVERY SIMPLE, SINGLE_USER, RESTRICTED_USER; "Altering XTP file or filegroup is not
 * allowed") but not the error numbers: ALTER DATABASE gets Msg 5008, the Database Engine's documented "This ALTER
 * DATABASE statement is not supported", which is what Managed Instance answers to SET RECOVERY SIMPLE. ALTER SERVER
 * CONFIGURATION is SQL Server only (its page): Msg 40510, Azure SQL's "Statement '%.*ls' is not supported in this
 * version of SQL Server", the closest documented message (Managed Instance's own number for it is not documented).
 */
function managedInstanceRefusal(kind: 'alter-database' | 'server-configuration'): SqlError {
  return kind === 'alter-database'
    ? new SqlError([
        err(5008, 'This ALTER DATABASE statement is not supported. Correct the syntax and execute the statement again.', 16, 9),
      ])
    : new SqlError([err(40510, "Statement 'ALTER SERVER CONFIGURATION' is not supported in this version of SQL Server.", 16, 1)]);
}

export function setRecovery(m: SimModel, db: Database, model: 'SIMPLE' | 'FULL' | 'BULK_LOGGED'): void {
  if (m.managedInstance && model !== 'FULL') throw managedInstanceRefusal('alter-database');
  db.recovery = model === 'SIMPLE' ? 'SIMPLE' : 'FULL';
}

/** SET SINGLE_USER WITH ROLLBACK IMMEDIATE: every other session in the database is ended. */
export function setSingleUser(m: SimModel, db: Database, spid: number): void {
  if (m.managedInstance) throw managedInstanceRefusal('alter-database');
  for (const o of m.connections.list()) {
    if (o.spid !== spid && o.database.toLowerCase() === db.name.toLowerCase()) m.connections.kill(o.spid);
  }
}

/** DROP DATABASE: refused (Msg 3702) while another session uses the database. */
export function dropDatabase(m: SimModel, db: Database, spid: number): void {
  if (m.connections.list().some((o) => o.spid !== spid && o.database.toLowerCase() === db.name.toLowerCase())) {
    throw new SqlError([err(3702, `Cannot drop database "${db.name}" because it is currently in use.`, 16, 4)]);
  }
  m.dropDatabase(db.name);
}

/** ADD FILEGROUP ... CONTAINS MEMORY_OPTIMIZED_DATA, usable (hasXtpFilegroup) once a container is added to it. */
export function addXtpFilegroup(m: SimModel, db: Database, withContainer: boolean): void {
  if (m.managedInstance) throw managedInstanceRefusal('alter-database');
  if (withContainer) db.hasXtpFilegroup = true;
}

export function setDelayedDurability(m: SimModel, db: Database, mode: Database['delayedDurability']): void {
  m.advance(); // the rates so far belong to the old setting
  db.delayedDurability = mode;
  m.refreshRates();
}

/** CREATE DATABASE: CREATE ANY DATABASE (or ALTER ANY DATABASE), Msg 1801 for a name in use; the creator owns it. */
export function createDatabase(m: SimModel, login: string, name: string): Database {
  if (!m.hasPermission(login, 'CREATE ANY DATABASE') && !m.hasPermission(login, 'ALTER ANY DATABASE')) {
    throw new SqlError([err(262, "CREATE DATABASE permission denied in database 'master'.", 14, 1)]);
  }
  if (m.database(name)) throw new SqlError([err(1801, `Database '${name}' already exists. Choose a different database name.`, 16, 3)]);
  const db = m.createDatabase(name);
  db.owner = login;
  return db;
}

/** The database ALTER DATABASE (or DROP DATABASE) may change: its owner's or with ALTER ANY DATABASE, else Msg 5011. */
export function alterableDatabase(m: SimModel, login: string, name: string): Database {
  const db = m.database(name);
  const owner = db?.owner?.toLowerCase() === login.toLowerCase();
  if (!db || (!owner && !m.hasPermission(login, 'ALTER ANY DATABASE'))) {
    throw new SqlError([
      err(
        5011,
        `User does not have permission to alter database '${name}', the database does not exist, or the database is not in a state that allows access checks.`,
        14,
        9,
      ),
    ]);
  }
  return db;
}

/** ALTER SERVER CONFIGURATION SET PROCESS AFFINITY (SQL Server only): ALTER SETTINGS, then valid CPU or node ids. */
export function setProcessAffinity(m: SimModel, login: string, spec: string): void {
  if (m.managedInstance) throw managedInstanceRefusal('server-configuration');
  if (!m.hasPermission(login, 'ALTER SETTINGS')) throw new SqlError(alterSettingsDenied());
  try {
    m.setAffinity(spec);
  } catch (e) {
    if (e instanceof AffinityError) throw new SqlError([err(e.number, e.message, e.number === 102 ? 15 : 16, 1)]);
    throw e;
  }
}
