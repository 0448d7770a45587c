// What the simulated server runs on: sys.dm_os_host_info (SQL Server 2017 on; public before 2022, VIEW SERVER
// PERFORMANCE STATE from 2022 and on Managed Instance, which runs the newest engine on Windows) and, on Azure SQL
// Managed Instance only, master.sys.server_resource_stats (its service tier, one row per 15-second window). The
// simulator imitates a Windows host; the catalogue leaves out the columns a version lacks (a 2016 server has none of
// sys.dm_os_host_info's, so it does not exist there).
import type { Value } from '../tds/contract';
import { serverStateDenied, SqlError } from './errors';
import { MANAGED_INSTANCE_SKU } from './platform';
import { cols, SystemView, T } from './types';

const hostInfo: SystemView = {
  name: 'sys.dm_os_host_info',
  scope: 'public',
  columns: () =>
    cols([
      ['host_platform', T.nvarchar(256)],
      ['host_distribution', T.nvarchar(256)],
      ['host_release', T.nvarchar(256)],
      ['host_service_pack_level', T.nvarchar(256)],
      ['host_sku', T.int],
      ['os_language_version', T.int],
    ]),
  rows: (c) => {
    const m = c.model;
    if (m.version >= 16 && !m.canViewServerState(c.session.login)) throw new SqlError(serverStateDenied(m));
    // host_sku 7: Standard Server (the docs' list of Windows SKUs); 1033: English (United States).
    return [['Windows', 'Simulated Windows Server 2022', '10.0', '', 7, 1033]];
  },
};

/** Windows of 15 seconds: the view's newest rows, oldest first. */
const WINDOW_MS = 15_000;

const serverResourceStats: SystemView = {
  name: 'sys.server_resource_stats',
  scope: 'public',
  columns: () =>
    cols([
      ['start_time', T.datetime2],
      ['end_time', T.datetime],
      ['resource_type', T.nvarchar(128)],
      ['resource_name', T.nvarchar(128)],
      ['sku', T.nvarchar(128)],
      ['hardware_generation', T.nvarchar(128)],
      ['virtual_core_count', T.int],
    ]),
  rows: (c) => {
    const m = c.model;
    const end = Math.floor(m.clock.now() / WINDOW_MS) * WINDOW_MS;
    return [2, 1].map((k): Value[] => [
      new Date(end - k * WINDOW_MS),
      new Date(end - (k - 1) * WINDOW_MS),
      'SQL managed instance',
      m.serverName,
      MANAGED_INSTANCE_SKU,
      'Gen5',
      m.machine.cpuCount,
    ]);
  },
};

export const HOST_VIEWS: SystemView[] = [hostInfo, serverResourceStats];
