// Which names cannot be the lab database, checked before anything connects (the CLI's --lab-db, a notebook's record,
// the panel's field). The lab database is created, altered (filegroups, delayed durability, recovery) and may be
// dropped by Spinlock Lab, so a system database is never one, however it is spelled.

/** SQL Server's own databases and those its features install (replication, Integration and Reporting Services). */
const SYSTEM = ['master', 'model', 'msdb', 'tempdb', 'mssqlsystemresource', 'distribution', 'ssisdb', 'reportserver', 'reportservertempdb'];
/** Reporting Services on a named instance: ReportServer$INSTANCE and ReportServer$INSTANCETempDB. */
const REPORT_SERVER_INSTANCE = /^reportserver\$[^\s]+$/i;

/** The name as SQL Server would read it typed in T-SQL: blanks around it and one pair of brackets removed. */
function bare(name: string): string {
  const t = name.trim();
  return /^\[.*\]$/s.test(t) ? t.slice(1, -1).replace(/]]/g, ']') : t;
}

export function isSystemDatabase(name: string): boolean {
  const n = bare(name).toLowerCase();
  return SYSTEM.includes(n) || REPORT_SERVER_INSTANCE.test(n);
}

/** Why `name` cannot be the lab database (without the fix: each caller names its own option or field), or null. */
export function labDatabaseProblem(name: string): string | null {
  if (!bare(name).trim()) return 'no name was given (the default is SpinlockLab)';
  if (isSystemDatabase(name)) {
    return `${bare(name)} is a system database; the lab database is one Spinlock Lab creates, alters and may drop, so it must be a database of its own (the default is SpinlockLab)`;
  }
  // Spinlock Lab quotes every name itself: [Lab] would create a database whose name holds the brackets.
  if (/^\[.*\]$/s.test(name.trim()))
    return `write the name without the brackets (${bare(name)}, not ${name.trim()}): Spinlock Lab quotes names itself`;
  return null;
}
