// What the simulated server is: a SQL Server of one major version (13-17), or Azure SQL Managed Instance. Managed
// Instance (SERVERPROPERTY docs and "T-SQL differences between SQL Server & Azure SQL Managed Instance"): EngineEdition
// 8, Edition 'SQL Azure', a product version of 12.0.2000.8 that does not compare with SQL Server's while it runs the
// newest engine (so the model's feature version is the newest), a memory-optimized filegroup named XTP in every user
// database, database counters named by a GUID (sys.databases.physical_database_name), and ALTER DATABASE options and
// statements it refuses (ddl/ops.ts). The simulator is a Business Critical instance (In-Memory OLTP works there).
import { createHash } from 'node:crypto';

export type Platform = 'box' | 'managed-instance';

export interface VersionInfo {
  year: number;
  build: string;
  name: string;
}

export const VERSIONS: Record<number, VersionInfo> = {
  13: { year: 2016, build: '13.0.7050.2', name: 'SQL Server 2016 (SP3)' },
  14: { year: 2017, build: '14.0.3485.1', name: 'SQL Server 2017' },
  15: { year: 2019, build: '15.0.4415.2', name: 'SQL Server 2019' },
  16: { year: 2022, build: '16.0.4175.1', name: 'SQL Server 2022' },
  17: { year: 2025, build: '17.0.1000.7', name: 'SQL Server 2025' },
};

export const MANAGED_INSTANCE: VersionInfo = { year: 0, build: '12.0.2000.8', name: 'Azure SQL Managed Instance' };
/** The engine a Managed Instance runs: the newest SQL Server's features and permission names. */
export const MANAGED_INSTANCE_FEATURE_VERSION = 17;
/** sys.server_resource_stats.sku of the simulated instance. */
export const MANAGED_INSTANCE_SKU = 'BusinessCritical';

export function parsePlatform(v: string): Platform {
  const p = v.trim().toLowerCase();
  if (p === 'box' || p === 'sql-server' || p === 'sqlserver') return 'box';
  if (p === 'managed-instance' || p === 'mi') return 'managed-instance';
  throw new Error(`platform must be box (SQL Server) or managed-instance, not '${v}'`);
}

/** sys.databases.physical_database_name: a stable GUID for a user database on Managed Instance, else its name. */
export function physicalDatabaseName(platform: Platform, id: number, name: string, created: Date): string {
  if (platform !== 'managed-instance' || id <= 4) return name;
  const h = createHash('sha256').update(`${id}|${name}|${created.getTime()}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`.toUpperCase();
}
