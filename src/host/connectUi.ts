// A failed connect in the panel's words: the server's message with its number (as SSMS shows it), what was tried, and
// the fix naming the connection form's own fields and checkboxes (the CLI's words speak of connection strings and
// SPINLAB_PASSWORD, which the panel has not). `control` is the field the panel marks and focuses beside the error.
import {
  authenticationTried,
  connectErrorNumber,
  connectFailureKind,
  noWireFacts,
  notSqlServerWords,
  slowLoginWords,
  targetWhere,
  withMsgNumber,
  type ConnectTarget,
} from '../db/connectErrors';
import { DbError } from '../db/dbError';
import type { UiError } from '../shared/protocol';

/** The panel's error for a failed first connection, or null when `err` is not one (then the generic words apply). */
export function panelConnectError(err: unknown, t: ConnectTarget): UiError | null {
  const f = err instanceof DbError ? err.connectFailure : undefined;
  if (!f) return null;
  const where = targetWhere(t);
  const said = withMsgNumber(f.message, connectErrorNumber(f.message, f.number));
  const kind = connectFailureKind(f.message, f.number, f.wire);
  switch (kind) {
    case 'login':
      return {
        message: `${said} The server at ${where} answered but refused the login: ${authenticationTried(t)} was tried.`,
        fix:
          t.authentication === 'sql'
            ? 'Check the Login and Password fields (kept as you typed them), and that the server allows SQL Server authentication (mixed mode).'
            : t.authentication === 'ntlm'
              ? 'Check the Windows user, Domain and Password fields, and that the server knows the account as a login.'
              : 'Check that the server knows your Microsoft Entra account as a login.',
        action: 'connect',
        control: t.authentication === 'azure-active-directory-access-token' ? undefined : 'password',
      };
    case 'database':
      return {
        message: `${said} The server at ${where} accepted the login, but ${authenticationTried(t)} cannot open the database it connects to.`,
        fix: 'Check that the login may open master (its default database), or ask an administrator.',
        action: 'connect',
        control: t.authentication === 'azure-active-directory-access-token' ? undefined : 'user',
      };
    case 'tls':
      // Strict encryption (TDS 8) always verifies the certificate: the checkbox would change nothing.
      return t.encrypt === 'strict'
        ? {
            message: `The server at ${where} is reachable, but this machine does not trust its TLS certificate (${said.replace(/\.$/, '')}); with Encrypt strict, "Trust server certificate" is ignored.`,
            fix:
              "Install the CA that signed the server's certificate (or the self-signed certificate itself) on this machine and connect with the name it was issued to; " +
              'or, for a lab only, choose Encrypt mandatory and tick "Trust server certificate".',
            action: 'connect',
            control: 'server',
          }
        : {
            message: `The server at ${where} is reachable, but this machine does not trust its TLS certificate (${said.replace(/\.$/, '')}).`,
            fix:
              'Tick "Trust server certificate" and connect again (the traffic stays encrypted, but the server is not verified), ' +
              "or install the CA that signed the server's certificate on this machine and connect with the name it was issued to.",
            action: 'connect',
            control: 'trustServerCertificate',
          };
    case 'not-tds':
    case 'not-tls':
    case 'closed':
    case 'silent': {
      // The CLI's words, with "Check the port" as the fix beside the Server and Port fields.
      const [message, fix] = notSqlServerWords(kind, t, f.wire ?? noWireFacts()).split(/ (?=Check the port:)/);
      return { message, fix: `${fix} Then check the Server and Port fields.`, action: 'connect', control: 'server' };
    }
    case 'slow-login':
      return {
        message: `${slowLoginWords(t)} (${said.replace(/\.$/, '')})`,
        fix: 'Connect again in a while.',
        action: 'connect',
        control: 'server',
      };
    case 'unreachable':
      return {
        message: `Could not reach a SQL Server at ${where}; no login was attempted (${said.replace(/\.$/, '')}).`,
        fix:
          'Check the Server and Port fields, that SQL Server accepts TCP/IP connections, and any firewall between here and there' +
          (t.instanceName ? '; for a named instance, that the SQL Server Browser service runs (UDP 1434), or give the Port instead.' : '.'),
        action: 'connect',
        control: 'server',
      };
    default:
      return null;
  }
}
