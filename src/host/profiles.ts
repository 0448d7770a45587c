// Connection profiles: the form's saved shape (no secrets) <-> the engine's DbTarget, new-profile defaults, and the
// prefill from another tool's Object Explorer node (the MSSQL extension's tree node, or Azure Data Studio's
// IConnectionProfile / ObjectExplorerContext). Those shapes are not ours and change between versions: every field is
// read defensively, and a shape we cannot use gives a ProfileError that says what was missing.
import * as crypto from 'node:crypto';
import type { DbTarget } from '../db/target';
import { DEFAULT_LAB_DATABASE, connectionProfileSchema, type ConnectionProfile } from '../shared/protocol';
import { SpinlabError } from '../shared/spinlabError';
import { parseServer } from '../shared/serverAddress';

/** A connection the form, Object Explorer or Azure Data Studio gave that cannot be used: fixed in the connection form. */
export class ProfileError extends SpinlabError {
  constructor(message: string) {
    super('connection', message);
  }
}

export function newProfileId(): string {
  return crypto.randomBytes(9).toString('base64url');
}

/** A new, empty profile: localhost, SQL login, encryption mandatory, the default lab database. */
export function defaultProfile(over: Partial<ConnectionProfile> = {}): ConnectionProfile {
  return {
    id: newProfileId(),
    label: '',
    server: 'localhost',
    port: null,
    instanceName: null,
    authentication: 'sql',
    user: '',
    domain: '',
    encrypt: 'mandatory',
    trustServerCertificate: false,
    labDatabase: DEFAULT_LAB_DATABASE,
    ...over,
  };
}

/** The secret that goes with a profile: a password (SQL login, NTLM) or an Entra access token. */
export interface ProfileSecret {
  password?: string;
  accessToken?: string;
}

/** The engine's target for a profile. Secrets only ever live in the returned object, never in the profile. */
export function profileToTarget(p: ConnectionProfile, secret: ProfileSecret): DbTarget {
  const base = {
    server: p.server.trim(),
    port: p.instanceName ? undefined : (p.port ?? 1433),
    instanceName: p.instanceName || undefined,
    encrypt: p.encrypt === 'strict' ? ('strict' as const) : p.encrypt === 'mandatory',
    trustServerCertificate: p.trustServerCertificate,
    connectTimeoutMs: 15_000,
    appName: 'Spinlock Lab',
  };
  switch (p.authentication) {
    case 'sql':
      if (!p.user) throw new ProfileError('A SQL login needs a user name.');
      return { ...base, authentication: 'sql', user: p.user, password: secret.password ?? '' };
    case 'ntlm':
      if (!p.user) throw new ProfileError('Windows (NTLM) authentication needs a user name.');
      return { ...base, authentication: 'ntlm', user: p.user, domain: p.domain, password: secret.password ?? '' };
    case 'entra':
      if (!secret.accessToken) throw new ProfileError('Microsoft Entra ID authentication needs an access token; sign in when asked.');
      return { ...base, authentication: 'azure-active-directory-access-token', accessToken: secret.accessToken };
  }
}

/** 'host', 'host,port', 'tcp:host,port', 'host\\instance', 'host\\instance,port' -> server, port, instance. */
export function parseServerString(raw: string): Pick<ConnectionProfile, 'server' | 'port' | 'instanceName'> {
  // The command line's reading of Server= (host:port, IPv6, tcp:, named pipes refused), with the form's null port
  // when none was written (1433, or SQL Browser's answer for an instance).
  const a = parseServer(raw, (why) => {
    throw new ProfileError(why);
  });
  const explicit = /,\s*\d{1,5}\s*$/.test(raw);
  return { server: a.server, port: explicit ? a.port : null, instanceName: explicit ? null : (a.instanceName ?? null) };
}

type Loose = Record<string, unknown>;
const isObj = (v: unknown): v is Loose => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

function readEncrypt(v: unknown): ConnectionProfile['encrypt'] {
  if (v === true) return 'mandatory';
  if (v === false) return 'optional';
  const s = text(v).toLowerCase();
  if (s === 'strict') return 'strict';
  if (s === 'optional' || s === 'false' || s === 'no') return 'optional';
  return 'mandatory'; // 'mandatory', 'true', or missing: the safe default
}

function readPort(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,5}$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? n : null;
}

/** 'SqlLogin' | 'Integrated' | 'AzureMFA' | 'AzureMFAAndUser' | ... -> ours; Windows integrated maps to NTLM. */
function readAuth(v: unknown): ConnectionProfile['authentication'] {
  const s = text(v).toLowerCase();
  if (s.startsWith('azure') || s.includes('entra') || s.startsWith('activedirectory')) return 'entra';
  if (s === 'integrated' || s === 'windows' || s === 'sspi' || s === 'ntlm') return 'ntlm';
  return 'sql';
}

/** DOMAIN\\user -> both parts, for NTLM. */
function splitUser(user: string, auth: ConnectionProfile['authentication']): { user: string; domain: string } {
  if (auth === 'entra') return { user: '', domain: '' };
  const i = user.indexOf('\\');
  if (auth === 'ntlm' && i > 0) return { domain: user.slice(0, i), user: user.slice(i + 1) };
  return { user, domain: '' };
}

interface Fields {
  server: unknown;
  port?: unknown;
  user?: unknown;
  authenticationType?: unknown;
  encrypt?: unknown;
  trustServerCertificate?: unknown;
  label?: unknown;
}

function fromFields(f: Fields, where: string): ConnectionProfile {
  const serverText = text(f.server);
  if (!serverText) throw new ProfileError(`${where} has no server name; fill in the connection form instead.`);
  const addr = parseServerString(serverText);
  const port = addr.port ?? (addr.instanceName ? null : readPort(f.port));
  const authentication = readAuth(f.authenticationType);
  const { user, domain } = splitUser(text(f.user), authentication);
  const profile = defaultProfile({
    ...addr,
    port,
    label: (text(f.label) || serverText).slice(0, 128),
    authentication,
    user: user.slice(0, 128),
    domain: domain.slice(0, 128),
    encrypt: readEncrypt(f.encrypt),
    trustServerCertificate: f.trustServerCertificate === true || text(f.trustServerCertificate).toLowerCase() === 'true',
  });
  const checked = connectionProfileSchema.safeParse(profile);
  if (!checked.success) {
    const first = checked.error.issues[0];
    throw new ProfileError(`${where} gave a connection Spinlock Lab cannot use (${first?.path.join('.')}: ${first?.message}).`);
  }
  return checked.data;
}

/**
 * The MSSQL extension's Object Explorer tree node (the argument of a `view/item/context` command on its tree): its
 * `connectionProfile` (newer versions) or `connectionInfo` (older) has server, authenticationType, user, and maybe
 * port, encrypt and trustServerCertificate. Any password on it is ignored: the user types it once in our form.
 */
export function profileFromMssqlNode(node: unknown): ConnectionProfile {
  if (!isObj(node)) throw new ProfileError('The Object Explorer item carries no connection (run this from a server node).');
  const info = [node.connectionProfile, node.connectionInfo, node].find((c) => isObj(c) && typeof c.server === 'string');
  if (!isObj(info)) {
    throw new ProfileError(
      'This Object Explorer item has no server connection (its connectionProfile/connectionInfo is missing); open Spinlock Lab and fill in the form.',
    );
  }
  return fromFields(
    {
      server: info.server,
      port: info.port,
      user: info.user,
      authenticationType: info.authenticationType,
      encrypt: info.encrypt,
      trustServerCertificate: info.trustServerCertificate,
      label: info.profileName ?? node.label,
    },
    'The Object Explorer item',
  );
}

/**
 * Azure Data Studio: an ObjectExplorerContext ({ connectionProfile, nodeInfo }) or an IConnectionProfile itself
 * (serverName, userName, authenticationType 'SqlLogin' | 'Integrated' | 'AzureMFA', options {...}). Returns the
 * profile and the connection id to ask azdata.connection.getCredentials for the password.
 */
export function profileFromAzdata(contextOrProfile: unknown): { profile: ConnectionProfile; connectionId: string | null } {
  if (!isObj(contextOrProfile)) throw new ProfileError('Azure Data Studio passed no connection (run this from a server node).');
  const cp = isObj(contextOrProfile.connectionProfile) ? contextOrProfile.connectionProfile : contextOrProfile;
  const options = isObj(cp.options) ? cp.options : {};
  const server = cp.serverName ?? options.server;
  if (typeof server !== 'string' || !server.trim()) {
    throw new ProfileError('The Azure Data Studio connection has no serverName; open Spinlock Lab and fill in the form.');
  }
  const profile = fromFields(
    {
      server,
      port: options.port,
      user: cp.userName ?? options.user,
      authenticationType: cp.authenticationType ?? options.authenticationType,
      encrypt: options.encrypt,
      trustServerCertificate: options.trustServerCertificate,
      label: cp.connectionName ?? options.connectionName,
    },
    'The Azure Data Studio connection',
  );
  const id = cp.id ?? cp.connectionId;
  return { profile, connectionId: typeof id === 'string' && id ? id : null };
}

/** Where the profile points, for messages and the journal's lookup (no secrets). */
export function describeProfile(p: ConnectionProfile): string {
  const where = p.instanceName ? `${p.server}\\${p.instanceName}` : `${p.server}${p.port && p.port !== 1433 ? `,${p.port}` : ''}`;
  return p.user ? `${where} as ${p.domain ? `${p.domain}\\` : ''}${p.user}` : where;
}

/**
 * A prefill for a server the user already saved keeps the saved profile's id (and so its saved password); the
 * prefilled fields win, since they come from the connection the user just picked.
 */
export function matchSavedProfile(saved: readonly ConnectionProfile[], prefill: ConnectionProfile): ConnectionProfile {
  const same = saved.find(
    (p) =>
      p.server.toLowerCase() === prefill.server.toLowerCase() &&
      p.port === prefill.port &&
      (p.instanceName ?? '').toLowerCase() === (prefill.instanceName ?? '').toLowerCase() &&
      p.authentication === prefill.authentication &&
      p.user.toLowerCase() === prefill.user.toLowerCase(),
  );
  return same ? { ...prefill, id: same.id, label: same.label || prefill.label, labDatabase: same.labDatabase } : prefill;
}
