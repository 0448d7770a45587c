// What a driver error is: its category (src/shared/spinlabError.ts), from the server's numbers and the driver's codes,
// and for a failed first connection, words a user can act on: reached or not (and when reached, whether what answered
// is SQL Server), which authentication was tried, and for an untrusted TLS certificate which setting to change.
// Secrets never appear: only the user and domain names.
import type { ErrorCategory } from '../shared/spinlabError';

/** The parts of a DbTarget a message may name (no secrets; declared here so client.ts can import this file). */
export interface ConnectTarget {
  server: string;
  port?: number;
  instanceName?: string;
  user?: string;
  domain?: string;
  authentication: string;
  /** 'strict' (TDS 8): the certificate is always verified and TrustServerCertificate is ignored. */
  encrypt?: boolean | string;
  connectTimeoutMs?: number;
}

/** What the socket of a failed first connection saw (wireWatch.ts notes it). */
export interface WireFacts {
  /** TCP connected: something listens at that address. */
  tcpConnected: boolean;
  /** The server's replies were watched (not with strict encryption, where TLS reads from the first byte). */
  watched: boolean;
  /** The server sent something. */
  replied: boolean;
  /** Its first reply when that was not SQL Server's (described: 'an HTTP server: "HTTP/1.1 400 Bad Request"'). */
  notTds: string | null;
}

export function noWireFacts(): WireFacts {
  return { tcpConnected: false, watched: false, replied: false, notTds: null };
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

/** Node's words for a trusted certificate issued to other names. */
const NAME_MISMATCH = /altnames|Hostname\/IP does not match/i;
const TIMEOUT = /ETIMEOUT|timeout|in \d+ms/i;
const CLOSED = /socket hang up|ECONNRESET|Connection lost|closed|EPIPE|disconnected before secure TLS/i;
/** OpenSSL's words for a reply that is not TLS at all (an HTTP server's text read as a TLS record). */
const NOT_TLS = /wrong version number|packet length too long|unknown protocol|record layer failure|http request/i;

/**
 * What stopped a first connection: the login refused, its database refused, an untrusted certificate; something at
 * that address that is not SQL Server (its first reply is not TDS, or not TLS under strict encryption; it closed
 * without a reply; it never replied); a SQL Server that answered but did not finish the login in time; no server there.
 */
type ConnectFailureKind = 'login' | 'database' | 'tls' | 'not-tds' | 'not-tls' | 'closed' | 'silent' | 'slow-login' | 'unreachable';

export function connectFailureKind(message: string, number: number | undefined, wire?: WireFacts): ConnectFailureKind | null {
  // 4060's own words end "The login failed.": its number decides first.
  if (number === 4060) return 'database';
  if (number === 18456 || /Login failed/i.test(message)) return 'login';
  if (wire?.notTds) return 'not-tds';
  if (wire?.tcpConnected && !wire.watched && NOT_TLS.test(message)) return 'not-tls';
  if (TLS.test(message)) return 'tls';
  if (wire?.tcpConnected && !wire.replied) {
    // Under strict encryption the replies are not watched: a timeout or a close may come after some.
    if (CLOSED.test(message)) return 'closed';
    if (TIMEOUT.test(message)) return 'silent';
  }
  if (wire?.tcpConnected && wire.replied && TIMEOUT.test(message)) return 'slow-login';
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

/** How a wait is said: "15 s". */
function seconds(t: ConnectTarget): string {
  return `${Math.round((t.connectTimeoutMs ?? 15_000) / 1000)} s`;
}

/** Words shared by the CLI and the panel for the failures that say something other than SQL Server may have answered. */
export function notSqlServerWords(kind: 'not-tds' | 'not-tls' | 'closed' | 'silent', t: ConnectTarget, wire: WireFacts): string {
  const where = targetWhere(t);
  const port = t.instanceName ? 'the port SQL Browser gave for that instance' : `port ${t.port ?? 1433}`;
  const check = `Check the port: SQL Server's default is 1433, and its error log names the one it listens on ("Server is listening on [ 'any' <ipv4> 1433]").`;
  // With Encrypt=strict the client opens with TLS, which a SQL Server before 2022 does not expect: it closes or waits.
  const strict =
    t.encrypt === 'strict'
      ? ' With Encrypt=strict the client opens with TLS (TDS 8), which only SQL Server 2022 or later and Azure SQL accept: for an older server use Encrypt=mandatory.'
      : '';
  switch (kind) {
    case 'not-tds':
      return /TLS record/.test(wire.notTds ?? '')
        ? `Something at ${where} answered with TLS from its first byte, which SQL Server does only with strict encryption: if it is SQL Server 2022 or later forcing strict encryption, add Encrypt=strict; otherwise another service (HTTPS?) listens on ${port}. ${check}`
        : `Something at ${where} answered, but it is not SQL Server: its first reply (${wire.notTds}) is not TDS, SQL Server's protocol, so another service listens on ${port}. ${check}`;
    case 'not-tls':
      return `Something at ${where} answered, but not with TLS, which Encrypt=strict (TDS 8) starts with: either another service listens on ${port}, or it is a SQL Server older than 2022, which does not speak TDS 8 (use Encrypt=mandatory). ${check}`;
    case 'closed':
      return `Something at ${where} accepted the TCP connection and closed it ${t.encrypt === 'strict' ? 'during the TLS handshake' : "without a reply (SQL Server answers the client's first message)"}: another service may listen on ${port}, or a proxy or firewall ends the connection.${strict} ${check}`;
    case 'silent':
      return `Something at ${where} accepted the TCP connection but did not answer the client's first message within ${seconds(t)}: either another service listens on ${port}, or the server is too busy to accept connections (THREADPOOL waits).${strict} ${check}`;
  }
}

/** A SQL Server that answered but did not finish the login in time (the CLI and the panel add their own fix). */
export function slowLoginWords(t: ConnectTarget): string {
  return `The server at ${targetWhere(t)} answered as SQL Server but did not finish the login within ${seconds(t)}: it may be too busy to accept connections (THREADPOOL waits), or a login trigger or the authentication behind it is slow.`;
}

/** Advice for a certificate this machine does not trust: with strict encryption TrustServerCertificate is ignored. */
function tlsAdvice(t: ConnectTarget): string {
  if (t.encrypt === 'strict') {
    return (
      ' With Encrypt=strict (TDS 8) the certificate is always verified and TrustServerCertificate is ignored, so adding it does not help.' +
      " Make this machine trust the server's certificate: install the CA that signed it, or the self-signed certificate itself (for Node: NODE_EXTRA_CA_CERTS=/path/to/cert.pem)," +
      ' and connect with the name it was issued to (Server=that-name, or HostNameInCertificate=that-name when you connect by address).' +
      ' For a lab only: Encrypt=mandatory;TrustServerCertificate=true (still encrypted, the server not verified).'
    );
  }
  return (
    " Either add TrustServerCertificate=true to the connection string (the traffic stays encrypted, but the server is not verified), or install the CA that signed the server's certificate on this machine (for Node: NODE_EXTRA_CA_CERTS=/path/to/ca.pem) and connect with the name the certificate was issued to" +
    ' (Server=that-name, or HostNameInCertificate=that-name when you connect by address).'
  );
}

/** The message for a connection that failed before any request (the CLI's words), or null when `message` is not about connecting. */
export function explainConnectFailure(message: string, number: number | undefined, t: ConnectTarget, wire?: WireFacts): string | null {
  const where = targetWhere(t);
  const said = withMsgNumber(message, connectErrorNumber(message, number));
  const kind = connectFailureKind(message, number, wire);
  switch (kind) {
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
      if (NAME_MISMATCH.test(message))
        return `${said}\n  The server at ${where} is reachable, but its TLS certificate was issued to other names than the one connected with: connect with one of the names it lists (Server=that-name), or keep the address and name it with HostNameInCertificate=that-name.`;
      return `${said}\n  The server at ${where} is reachable, but its TLS certificate is not trusted by this machine (a self-signed certificate, as SQL Server makes by default, or one from a CA this machine does not know).${tlsAdvice(t)}`;
    case 'not-tds':
    case 'not-tls':
    case 'closed':
    case 'silent':
      // The driver's words ("Connection lost - socket hang up") would say less, and wrongly: it was never connected.
      return notSqlServerWords(kind, t, wire!);
    case 'slow-login':
      return `${said}\n  ${slowLoginWords(t)} Try again, or allow more time with Connect Timeout=60.`;
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
