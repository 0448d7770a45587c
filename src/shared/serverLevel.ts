// Which SQL Server a server behaves like, for every decision the product takes by version (permission names, features).
// Azure SQL Managed Instance reports SERVERPROPERTY('EngineEdition') = 8 and a product version of 12.x, and its version
// numbers do not compare with SQL Server's (SERVERPROPERTY, "Version properties" and the note under Syntax): it is
// versionless and always runs the newest engine bits, so it is decided by its engine edition first and counts as the
// newest SQL Server the product was checked against.

/** SERVERPROPERTY('EngineEdition') of Azure SQL Managed Instance. */
export const ENGINE_EDITION_MANAGED_INSTANCE = 8;

/** The newest SQL Server major version Spinlock Lab was checked against (SQL Server 2025). */
export const NEWEST_MAJOR_VERSION = 17;

export function isManagedInstance(engineEdition: number | null | undefined): boolean {
  return engineEdition === ENGINE_EDITION_MANAGED_INSTANCE;
}

/**
 * The SQL Server major version whose permissions and features apply: the newest on Managed Instance, the product's
 * own major version elsewhere (null when unknown).
 */
export function featureVersion(s: { majorVersion: number | null; engineEdition: number | null | undefined }): number | null {
  return isManagedInstance(s.engineEdition) ? NEWEST_MAJOR_VERSION : s.majorVersion;
}
