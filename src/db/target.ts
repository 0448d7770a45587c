// Where and how to connect (DbTarget), and the two ways a target is named without its secrets: for a person
// (describeTarget) and as the address a restore journal is keyed by (targetAddress). Apart from client.ts so the many
// modules that only name a target do not load the driver to do it.

/** Where and how to connect. Secrets stay in this object: never log it (see describeTarget). */
export interface DbTarget {
  server: string;
  port?: number;
  instanceName?: string;
  database?: string;
  user?: string;
  password?: string;
  authentication: 'sql' | 'ntlm' | 'azure-active-directory-access-token';
  domain?: string;
  accessToken?: string;
  encrypt: boolean | 'strict';
  trustServerCertificate: boolean;
  /** HostNameInCertificate: the name the certificate is checked against instead of `server`. */
  hostNameInCertificate?: string;
  connectTimeoutMs: number;
  requestTimeoutMs?: number;
  appName?: string;
}

export function describeTarget(t: DbTarget): string {
  const where = t.instanceName ? `${t.server}\\${t.instanceName}` : `${t.server}${t.port ? ',' + t.port : ''}`;
  return `${where}${t.user ? ` as ${t.user}` : ''}`;
}

/** host,port or host\instance: the address a restore journal is keyed by, the same for a run and for `restore`. */
export function targetAddress(t: DbTarget): string {
  return t.instanceName ? `${t.server}\\${t.instanceName}` : `${t.server},${t.port ?? 1433}`;
}
