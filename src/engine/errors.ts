// Turns driver errors into messages a user can act on: what is wrong and the statement that fixes it.
import { DbError } from '../db/dbError';

import { SpinlabError, categoryOf } from '../shared/spinlabError';

export { SpinlabError, categoryOf };

/** The GRANT a permission needs, for the login the user connected as. */
export function grantFor(permission: string, login: string, majorVersion: number | null, database?: string): string {
  const who = `[${login.replace(/]/g, ']]')}]`;
  if (permission === 'VIEW SERVER STATE') {
    return majorVersion !== null && majorVersion >= 16
      ? `USE master; GRANT VIEW SERVER PERFORMANCE STATE TO ${who};  -- SQL Server 2022+ (or VIEW SERVER STATE)`
      : `USE master; GRANT VIEW SERVER STATE TO ${who};`;
  }
  if (permission === 'VIEW DATABASE STATE' && database) {
    return `USE [${database.replace(/]/g, ']]')}]; GRANT VIEW DATABASE STATE TO <the login's database user>;`;
  }
  if (permission === 'ALTER SETTINGS') return `USE master; GRANT ALTER SETTINGS TO ${who};`;
  // An event session (spinlab stacks): create, start and drop it, and read its target (Microsoft Learn, CREATE /
  // ALTER / DROP EVENT SESSION; 2022 added the finer permissions ALTER ANY EVENT SESSION covers).
  if (permission === 'ALTER ANY EVENT SESSION') {
    return majorVersion !== null && majorVersion >= 16
      ? `USE master; GRANT ALTER ANY EVENT SESSION TO ${who};  -- or, finer (SQL Server 2022+): GRANT CREATE ANY EVENT SESSION, ALTER ANY EVENT SESSION ENABLE, DROP ANY EVENT SESSION TO ${who}; and GRANT VIEW SERVER PERFORMANCE STATE TO ${who}; to read the target`
      : `USE master; GRANT ALTER ANY EVENT SESSION TO ${who}; and GRANT VIEW SERVER STATE TO ${who}; to read the target`;
  }
  if (permission === 'CREATE DATABASE') return `USE master; GRANT CREATE ANY DATABASE TO ${who};`;
  return `GRANT ${permission} TO ${who};`;
}

export function numbers(err: unknown): number[] {
  if (err instanceof DbError) return err.all.map((e) => e.number ?? 0).concat(err.number ?? 0);
  return [];
}

/**
 * Explains a failure of `action` (e.g. 'sampling the DMVs'): a missing permission names the GRANT; a login failure,
 * a refused connection or a certificate problem says what to check.
 */
export function explain(
  err: unknown,
  action: string,
  ctx: { login: string; majorVersion: number | null; database?: string; needs?: string },
): SpinlabError {
  // Already explained; a driver error (also a SpinlabError, by its category) is what this explains.
  if (err instanceof SpinlabError && !(err instanceof DbError)) return err;
  const msg = err instanceof Error ? err.message : String(err);
  const nums = numbers(err);
  if (nums.includes(300) || nums.includes(297) || /VIEW SERVER (PERFORMANCE )?STATE permission was denied/i.test(msg)) {
    return new SpinlabError(
      'permission',
      `${action} failed: the login ${ctx.login} lacks VIEW SERVER STATE.`,
      grantFor('VIEW SERVER STATE', ctx.login, ctx.majorVersion),
      err,
    );
  }
  if (/VIEW DATABASE (PERFORMANCE )?STATE permission was denied/i.test(msg)) {
    return new SpinlabError(
      'permission',
      `${action} failed: the login ${ctx.login} lacks VIEW DATABASE STATE.`,
      grantFor('VIEW DATABASE STATE', ctx.login, ctx.majorVersion, ctx.database),
      err,
    );
  }
  if (ctx.needs && (nums.includes(15247) || nums.includes(262) || nums.includes(5011) || /permission/i.test(msg))) {
    return new SpinlabError('permission', `${action} failed: ${msg}`, grantFor(ctx.needs, ctx.login, ctx.majorVersion, ctx.database), err);
  }
  if (nums.includes(18456) || /Login failed/i.test(msg)) {
    return new SpinlabError(
      'connection',
      `${action} failed: ${msg}`,
      'check the user name and password (the password comes from the connection string or SPINLAB_PASSWORD).',
      err,
    );
  }
  const code = err instanceof DbError ? err.code : undefined;
  if (code === 'ESOCKET' && /ECONNREFUSED/.test(msg)) {
    return new SpinlabError(
      'connection',
      `${action} failed: nothing is listening there (${msg}).`,
      'check the server name and port, and that SQL Server accepts TCP connections.',
      err,
    );
  }
  if (/self[- ]signed|certificate/i.test(msg)) {
    return new SpinlabError(
      'connection',
      `${action} failed: ${msg}`,
      'install a trusted certificate on the server, or add TrustServerCertificate=true to the connection string if you accept the risk.',
      err,
    );
  }
  return new SpinlabError(categoryOf(err), `${action} failed: ${msg}`, undefined, err);
}
