// What a driver error is: its category (src/shared/spinlabError.ts), from the server's numbers and the driver's codes,
// and for a failed first connection, words a user can act on: reached or not, which authentication was tried, and for
// an untrusted TLS certificate which setting to change. Secrets never appear: only the user and domain names.
import type { ErrorCategory } from '../shared/spinlabError';

/** The parts of a DbTarget a message may name (no secrets; declared here so client.ts can import this file). */
export interface ConnectTarget {
  server: string;
  port?: number;
  instanceName?: string;
  user?: string;
  domain?: string;
  authentication: string;
}

/** The authentication a target tries, named as SQL Server's documentation names it. */
export function authenticationTried(t: ConnectTarget): string {
  switch (t.authentication) {
    case 'ntlm':
      return `Windows authentication (NTLM) as ${t.domain ? `${t.domain}\\` : ''}${t.user ?? '(no user)'}`;
    case 'azure-active-directory-access-token':
      return 'Microsoft Entra ID (Azure AD) with an access token';
    default:
      return `SQL Server authentication as the login '${t.user ?? ''}'`;
  }
}

const TLS = /self[- ]signed|certificate|unable to verify|UNABLE_TO_VERIFY|DEPTH_ZERO|CERT_|altnames|Hostname\/IP does not match/i;
const UNREACHABLE =
  /ECONNREFUSED|ETIMEDOUT|ETIMEOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|Failed to connect|timeout|could not connect|Port for .* not found/i;

/** What stopped a first connection: the login refused, its database refused, an untrusted certificate, no server there. */
type ConnectFailureKind = 'login' | 'database' | 'tls' | 'unreachable';

export function connectFailureKind(message: string, number: number | undefined): ConnectFailureKind | null {
  // 4060's own words end "The login failed.": its number decides first.
  if (number === 4060) return 'database';
  if (number === 18456 || /Login failed/i.test(message)) return 'login';
  if (TLS.test(message)) return 'tls';
  if (UNREACHABLE.test(message)) return 'unreachable';
  return null;
}

/** Where a target points, as SQL Server's tools write it: host\instance or host,port. */
export function targetWhere(t: ConnectTarget): string {
  return t.instanceName ? `${t.server}\\${t.instanceName}` : `${t.server},${t.port ?? 1433}`;
}

/**
 * The server's error number for a failed connect. Tedious reports a refused login as ELOGIN without the number the
 * server sent; "Login failed for user" is SQL Server's message 18456, whatever its state.
 */
export function connectErrorNumber(message: string, number: number | undefined): number | undefined {
  return number ?? (/Login failed for user/i.test(message) ? 18456 : undefined);
}

/** The server's words with its error number, as SSMS shows it: "Login failed for user 'sa' (Msg 18456)." */
export function withMsgNumber(message: string, number: number | undefined): string {
  const text = message.trim();
  if (number === undefined || new RegExp(`\\bMsg ${number}\\b`).test(text)) return text;
  return `${text.replace(/\.$/, '')} (Msg ${number}).`;
}

/** The message for a connection that failed before any request (the CLI's words), or null when `message` is not about connecting. */
export function explainConnectFailure(message: string, number: number | undefined, t: ConnectTarget): string | null {
  const where = targetWhere(t);
  const said = withMsgNumber(message, connectErrorNumber(message, number));
  switch (connectFailureKind(message, number)) {
    case 'login':
      return (
        `${said}\n  The server at ${where} is reachable and answered, but refused the login: ${authenticationTried(t)} was tried.` +
        (t.authentication === 'sql'
          ? ' Check the login name and password (the password comes from the connection string or SPINLAB_PASSWORD), and that the server allows SQL Server authentication (mixed mode).'
          : ' Check the account and that the server knows it as a login.')
      );
    case 'database':
      return `${said}\n  The server at ${where} is reachable and the login worked, but the database in the connection string cannot be opened with ${authenticationTried(t)}.`;
    case 'tls':
      return (
        `${said}\n  The server at ${where} is reachable, but its TLS certificate is not trusted by this machine (a self-signed certificate, as SQL Server makes by default, or one from a CA this machine does not know).` +
        " Either add TrustServerCertificate=true to the connection string (the traffic stays encrypted, but the server is not verified), or install the CA that signed the server's certificate on this machine (for Node: NODE_EXTRA_CA_CERTS=/path/to/ca.pem) and connect with the name the certificate was issued to."
      );
    case 'unreachable':
      return (
        `${said}\n  The server at ${where} could not be reached (no login was attempted). Check the server name and port, that SQL Server accepts TCP/IP connections, and any firewall between here and there` +
        (t.instanceName
          ? '; for a named instance, that the SQL Server Browser service is running (UDP 1434), or give the port instead.'
          : '.')
      );
    default:
      return null;
  }
}

/**
 * SQL Server's numbers for a missing permission: 229 (denied on an object), 262 (CREATE denied in a database), 297
 * (no permission), 300 (VIEW ... STATE denied), 916 (no access to the database), 5011 (cannot ALTER DATABASE), 15247
 * (no permission for the action).
 */
const PERMISSION_NUMBERS = new Set([229, 262, 297, 300, 916, 5011, 15247]);
/** The driver's codes for a connection that could not be made or was lost (mssql's ConnectionError codes). */
const CONNECTION_CODES = new Set(['ELOGIN', 'ESOCKET', 'ECONNCLOSED', 'ENOTOPEN', 'ENOCONN', 'EINSTLOOKUP', 'ECONNRESET', 'EPIPE']);

/**
 * The category of a driver error on an open connection (a failed connect is always 'connection', see DbSession.open):
 * a cancelled request, a refused login (18456), a missing permission (any of the numbers the server sent), a lost
 * connection; anything else the server said is 'server' (a request timeout too: the server did not answer in time).
 */
export function driverErrorCategory(numbers: readonly (number | undefined)[], code: string | undefined): ErrorCategory {
  if (code === 'ECANCEL') return 'cancelled';
  if (numbers.includes(18456)) return 'connection';
  if (numbers.some((n) => n !== undefined && PERMISSION_NUMBERS.has(n))) return 'permission';
  if (code !== undefined && CONNECTION_CODES.has(code)) return 'connection';
  return 'server';
}
