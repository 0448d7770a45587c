// sql/server/*: identity, topology, trace flags.
import { logWriterSchedulers } from '../dmvOs';
import { SqlError, serverStateDenied } from '../errors';
import { serverProperty, versionBanner } from '../select';
import { cols, T } from '../types';
import type { BatchHandler } from '../statements';
import type { Permission } from '../instance';
import { resultSet, select, statements } from './util';

const identity: BatchHandler = (c) => {
  const m = c.model;
  const p = (x: string) => serverProperty(c, x).v;
  const has = (perm: Permission) => (m.hasPermission(c.session.login, perm) ? 1 : 0);
  return [
    resultSet(
      cols([
        ['server_name', T.nvarchar(256)],
        ['machine_name', T.nvarchar(256)],
        ['product_version', T.nvarchar(64)],
        ['major_version', T.int],
        ['edition', T.nvarchar(256)],
        ['engine_edition', T.int],
        ['is_xtp_supported', T.int],
        ['default_data_path', T.nvarchar(4000)],
        ['version_banner', T.nvarchar(4000)],
        ['session_id', T.smallint],
        ['login_name', T.nvarchar(128)],
        ['has_view_server_state', T.int],
        ['has_view_server_performance_state', T.int],
        ['has_alter_settings', T.int],
      ]),
      [
        [
          m.serverName,
          p('MachineName'),
          p('ProductVersion'),
          m.productMajor,
          p('Edition'),
          p('EngineEdition'),
          p('IsXTPSupported'),
          p('InstanceDefaultDataPath'),
          versionBanner(c),
          c.session.spid,
          c.session.login,
          has('VIEW SERVER STATE'),
          m.version >= 16 ? has('VIEW SERVER PERFORMANCE STATE') : null,
          has('ALTER SETTINGS'),
        ],
      ],
    ),
  ];
};

const topology: BatchHandler = (c) => {
  if (!c.model.canViewServerState(c.session.login)) throw new SqlError(serverStateDenied(c.model));
  const st = statements(c.text);
  // Statement 4 joins dm_exec_requests to dm_os_schedulers: answered directly (log writers on node 0, core 0).
  const lw = resultSet(
    cols([
      ['session_id', T.smallint],
      ['scheduler_id', T.int],
      ['cpu_id', T.smallint],
      ['parent_node_id', T.int],
    ]),
    logWriterSchedulers(c).map((s, i) => [2 + i, s, 0, 0]),
  );
  return [select(c, st[0]), select(c, st[1]), select(c, st[2]), lw, select(c, st[4])];
};

const traceFlags: BatchHandler = (c) => [
  resultSet(
    cols([
      ['TraceFlag', T.smallint],
      ['Status', T.smallint],
      ['Global', T.smallint],
      ['Session', T.smallint],
    ]),
    c.model.traceFlags.map((f) => [f, 1, 1, 0]),
  ),
];

/** Databases whose physical_database_name (2019+ and Azure SQL, behind COL_LENGTH in the file) differs from the name. */
const databaseNames: BatchHandler = (c) => [
  resultSet(
    cols([
      ['name', T.sysname],
      ['physical_database_name', T.nvarchar(128)],
    ]),
    c.model.version < 15
      ? []
      : [...c.model.databases.values()].filter((d) => d.physicalName !== d.name).map((d) => [d.name, d.physicalName]),
  ),
];

export const SERVER_HANDLERS: Record<string, BatchHandler[]> = {
  'server/database-names': [databaseNames],
  'server/identity': [identity],
  'server/topology': [topology],
  'server/trace-flags': [traceFlags],
};
