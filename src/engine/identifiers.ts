// Client-side identifier quoting. Most identifiers are quoted server-side by QUOTENAME inside the sql/ files; this is
// for the few the client must write itself (exported scripts). Same rules as QUOTENAME with brackets.
import { SpinlabError } from '../shared/spinlabError';
import { isSystemDatabase } from '../shared/labDatabase';

/** sysname is nvarchar(128): 128 UTF-16 code units, which is what String.length counts. */
export const MAX_IDENTIFIER_LENGTH = 128;

export class IdentifierError extends SpinlabError {
  constructor(message: string) {
    super('user-input', message);
  }
}

function identifierProblem(name: string, what: string): string | null {
  if (typeof name !== 'string') return `${what} must be a string, got ${typeof name}`;
  if (name.length === 0) return `${what} is empty: give a name such as SpinlockLab`;
  if (name.includes('\0')) return `${what} contains a NUL character (\\0): remove it`;
  if (name.length > MAX_IDENTIFIER_LENGTH) {
    return `${what} is ${name.length} characters long; SQL Server allows at most ${MAX_IDENTIFIER_LENGTH}`;
  }
  return null;
}

/** T-SQL bracket quoting, as QUOTENAME(name) does: `a]b` -> `[a]]b]`. Throws IdentifierError for an unusable name. */
export function quoteName(name: string): string {
  const problem = identifierProblem(name, 'Identifier');
  if (problem) throw new IdentifierError(problem);
  return `[${name.replace(/]/g, ']]')}]`;
}

/**
 * The lab database's name is also the stem of its filegroup and container names (name + '_xtp_container', 14
 * characters more): QUOTENAME returns NULL for input over 128 characters, and a NULL in the dynamic SQL makes the
 * whole statement NULL, which sp_executesql runs as nothing, silently. So the name may be at most 128 - 14.
 */
export const MAX_LAB_DATABASE_NAME_LENGTH = MAX_IDENTIFIER_LENGTH - '_xtp_container'.length;

/** Why a name is too long for the lab database, or null. */
export function labDatabaseLengthProblem(name: string): string | null {
  if (name.length <= MAX_LAB_DATABASE_NAME_LENGTH) return null;
  return `The lab database name is ${name.length} characters long; it may be at most ${MAX_LAB_DATABASE_NAME_LENGTH}, because its In-Memory OLTP filegroup and container are named after it (name + _xtp_container must fit in 128 characters, or QUOTENAME returns NULL). Choose a shorter name, e.g. SpinlockLab`;
}

/** Regular-identifier shape: what can be typed on a command line and in a file path without surprises. */
const LAB_DB_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Why a name cannot be the lab database, or null if it can. Stricter than SQL Server on purpose: the lab database is
 * created, altered (filegroups, delayed durability) and dropped by the tool, and its name ends up in folder names for
 * the in-memory OLTP container, so it must be a plain regular identifier and never a system database.
 */
export function databaseNameProblem(name: string): string | null {
  const basic = identifierProblem(name, 'The database name');
  if (basic) return basic;
  if (isSystemDatabase(name)) {
    return `"${name}" is a system database; the lab needs a database of its own that it may alter and drop, e.g. SpinlockLab`;
  }
  const long = labDatabaseLengthProblem(name);
  if (long) return long;
  if (!LAB_DB_PATTERN.test(name)) {
    return `"${name}" is not a plain name: use letters, digits and _ only, starting with a letter or _ (e.g. SpinlockLab)`;
  }
  return null;
}

/** Returns the name unchanged if it can be the lab database; throws IdentifierError saying what to change otherwise. */
export function validateDatabaseName(name: string): string {
  const problem = databaseNameProblem(name);
  if (problem) throw new IdentifierError(problem);
  return name;
}
