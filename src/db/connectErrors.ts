// What a failed first connection means, in words a user can act on: reached or not, which authentication was tried,
// and for an untrusted TLS certificate which setting to change. Secrets never appear: only the user and domain names.
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
    case 'ntlm': return `Windows authentication (NTLM) as ${t.domain ? `${t.domain}\\` : ''}${t.user ?? '(no user)'}`;
    case 'azure-active-directory-access-token': return 'Microsoft Entra ID (Azure AD) with an access token';
    default: return `SQL Server authentication as the login '${t.user ?? ''}'`;
  }
}

const TLS = /self[- ]signed|certificate|unable to verify|UNABLE_TO_VERIFY|DEPTH_ZERO|CERT_|altnames|Hostname\/IP does not match/i;
const UNREACHABLE = /ECONNREFUSED|ETIMEDOUT|ETIMEOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|Failed to connect|timeout|could not connect|Port for .* not found/i;

/** The message for a connection that failed before any request, or null when `message` is not about connecting. */
export function explainConnectFailure(message: string, number: number | undefined, t: ConnectTarget): string | null {
  const where = t.instanceName ? `${t.server}\\${t.instanceName}` : `${t.server},${t.port ?? 1433}`;
  if (number === 18456 || /Login failed/i.test(message)) {
    return `${message}\n  The server at ${where} is reachable and answered, but refused the login: ${authenticationTried(t)} was tried.`
      + (t.authentication === 'sql'
        ? ' Check the login name and password (the password comes from the connection string or SPINLAB_PASSWORD), and that the server allows SQL Server authentication (mixed mode).'
        : ' Check the account and that the server knows it as a login.');
  }
  if (number === 4060) {
    return `${message}\n  The server at ${where} is reachable and the login worked, but the database in the connection string cannot be opened with ${authenticationTried(t)}.`;
  }
  if (TLS.test(message)) {
    return `${message}\n  The server at ${where} is reachable, but its TLS certificate is not trusted by this machine (a self-signed certificate, as SQL Server makes by default, or one from a CA this machine does not know).`
      + ' Either add TrustServerCertificate=true to the connection string (the traffic stays encrypted, but the server is not verified), or install the CA that signed the server\'s certificate on this machine (for Node: NODE_EXTRA_CA_CERTS=/path/to/ca.pem) and connect with the name the certificate was issued to.';
  }
  if (UNREACHABLE.test(message)) {
    return `${message}\n  The server at ${where} could not be reached (no login was attempted). Check the server name and port, that SQL Server accepts TCP/IP connections, and any firewall between here and there`
      + (t.instanceName ? '; for a named instance, that the SQL Server Browser service is running (UDP 1434), or give the port instead.' : '.');
  }
  return null;
}
