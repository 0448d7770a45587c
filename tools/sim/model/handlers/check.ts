// sql/server/check: the preflight's two result sets, answered from the model as SQL Server would: version by number,
// the platform the simulator imitates (Windows, per its @@VERSION and default data path), no container, Managed
// Instance's tier when it imitates one, and
// each permission through HAS_PERMS_BY_NAME's rules (effective: granted, implied, or owned; NULL for a permission name
// the version does not know and for a database that does not exist).
import { serverProperty, versionBanner } from '../select';
import { cols, T } from '../types';
import type { Permission } from '../instance';
import type { BatchCall, BatchHandler } from '../statements';
import { resultSet, strParam } from './util';
import { MANAGED_INSTANCE_SKU } from '../platform';

const ASKED: [string, 'SERVER' | 'DATABASE', number][] = [
  ['VIEW SERVER STATE', 'SERVER', 13],
  ['VIEW SERVER PERFORMANCE STATE', 'SERVER', 16],
  ['ALTER SETTINGS', 'SERVER', 13],
  ['CREATE ANY DATABASE', 'SERVER', 13],
  ['ALTER ANY DATABASE', 'SERVER', 13],
  ['ALTER ANY EVENT SESSION', 'SERVER', 13],
  ['CREATE ANY EVENT SESSION', 'SERVER', 16],
  ['ALTER ANY EVENT SESSION ENABLE', 'SERVER', 16],
  ['DROP ANY EVENT SESSION', 'SERVER', 16],
  ['VIEW DATABASE STATE', 'DATABASE', 13],
  ['VIEW DATABASE PERFORMANCE STATE', 'DATABASE', 16],
  ['ALTER', 'DATABASE', 13],
  ['CREATE TABLE', 'DATABASE', 13],
  ['CREATE PROCEDURE', 'DATABASE', 13],
];

function databasePermission(c: BatchCall, dbName: string, perm: string): number {
  const m = c.model;
  const login = c.session.login;
  const db = m.database(dbName)!;
  if (m.hasPermission(login, 'CONTROL SERVER') || (db.owner && db.owner.toLowerCase() === login.toLowerCase())) return 1;
  if (perm === 'VIEW DATABASE STATE' || perm === 'VIEW DATABASE PERFORMANCE STATE')
    return m.hasPermission(login, perm as Permission) ? 1 : 0;
  // ALTER ANY DATABASE implies ALTER on each database; creating objects needs the database's own grants.
  if (perm === 'ALTER') return m.hasPermission(login, 'ALTER ANY DATABASE') ? 1 : 0;
  return 0;
}

const check: BatchHandler = (c) => {
  const m = c.model;
  const p = (x: string) => serverProperty(c, x).v;
  const dbName = strParam(c, '@db');
  const exists = dbName !== null && m.database(dbName) !== undefined;
  const server = resultSet(
    cols([
      ['major_version', T.int],
      ['product_version', T.nvarchar(128)],
      ['edition', T.nvarchar(256)],
      ['engine_edition', T.int],
      ['is_xtp_supported', T.int],
      ['default_data_path', T.nvarchar(4000)],
      ['login_name', T.nvarchar(128)],
      ['version_banner', T.nvarchar(4000)],
      ['host_platform', T.nvarchar(256)],
      ['host_distribution', T.nvarchar(256)],
      ['container_type_desc', T.nvarchar(60)],
      ['service_tier', T.nvarchar(128)],
      ['lab_db_exists', T.int],
    ]),
    [
      [
        m.productMajor,
        p('ProductVersion'),
        p('Edition'),
        p('EngineEdition'),
        p('IsXTPSupported'),
        p('InstanceDefaultDataPath'),
        c.session.login,
        versionBanner(c),
        // sys.dm_os_host_info: 2017+; on 2016 the file assumes Windows. From 2022 (and on Managed Instance, which runs the
        // newest engine on Windows) it needs VIEW SERVER PERFORMANCE STATE.
        m.version < 16 || m.canViewServerState(c.session.login) ? 'Windows' : null,
        m.version >= 14 && (m.version < 16 || m.canViewServerState(c.session.login)) ? 'Simulated Windows Server 2022' : null,
        // Managed Instance: the tier from sys.server_resource_stats (read behind a TRY, so any login gets a value or NULL).
        null,
        m.managedInstance ? MANAGED_INSTANCE_SKU : null,
        exists ? 1 : 0,
      ],
    ],
  );
  // @level: the newest SQL Server's permission names on Managed Instance (m.version is its feature version there).
  const perms = resultSet(
    cols([
      ['permission_name', T.nvarchar(128)],
      ['scope', T.nvarchar(8)],
      ['has_permission', T.int],
    ]),
    ASKED.map(([name, scope, min]) => [
      name,
      scope,
      min > m.version
        ? null
        : scope === 'SERVER'
          ? m.hasPermission(c.session.login, name as Permission)
            ? 1
            : 0
          : !exists
            ? null
            : databasePermission(c, dbName!, name),
    ]),
  );
  // Our leftover event sessions, for a login the batch's gate lets read sys.server_event_sessions: VIEW SERVER STATE,
  // or from 2022 VIEW SERVER PERFORMANCE STATE where the gate asks for it too (a name older versions do not know).
  const fineGate = /HAS_PERMS_BY_NAME\(NULL, NULL, N'VIEW SERVER PERFORMANCE STATE'\) = 1/.test(c.text);
  const mayList =
    m.hasPermission(c.session.login, 'VIEW SERVER STATE') ||
    (fineGate && m.version >= 16 && m.hasPermission(c.session.login, 'VIEW SERVER PERFORMANCE STATE'));
  const leftover = resultSet(
    cols([
      ['name', T.sysname],
      ['running', T.int],
    ]),
    mayList
      ? [...m.xe.sessions.values()]
          .filter((x) => /^spinlocklab_/i.test(x.name))
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((x) => [x.name, x.running ? 1 : 0])
      : [],
  );
  return [server, perms, leftover];
};

export const CHECK_HANDLERS: Record<string, BatchHandler[]> = { 'server/check': [check] };
