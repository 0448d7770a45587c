// Microsoft's SQL extension for VS Code (ms-mssql.mssql), where SQL Server users keep their connections since Azure
// Data Studio's retirement: its saved connections, and its API that gives the credentials for one at connect time
// (used by features/connect/sqlExtensionConnect.ts). Plain Node and light (the Activity Bar lists the connections at
// activation): the editor hands in what it read (src/extension/sqlExtension.ts), a test hands in a stub.
//
// - The saved connections are its `mssql.connections` setting (a profile list without passwords: it keeps those in its
//   own credential store). We read server, database, authentication type, user and display name; never a password.
// - The credentials come from its exported API, only when a connection is opened, and live in memory for that connect:
//   `connect(connectionInfo, saveConnection?)` (it looks up the saved password, or asks for it in its own prompt)
//   resolves to a connection URI, and `getConnectionString(uri, includePassword, includeApplicationName)` returns the
//   ADO.NET string with the password (IExtension in typings/vscode-mssql.d.ts of microsoft/vscode-mssql). Its releases
//   after 28 August 2026 no longer export these two (microsoft/vscode-mssql PR #22837 limited the exports to connection
//   sharing and URI ownership; both are tagged for retirement, connection sharing shows every caller a retirement
//   notice and is being removed, PR #22879), so we do not use connection sharing: without the two functions a SQL
//   login's password is asked once in our form (SecretStorage if the user ticks Save password).
import * as crypto from 'node:crypto';
import type { ConnectionProfile, SqlExtensionConnectionView } from '../shared/protocol';
import { ProfileError, profileFromMssqlNode } from './profiles';
import type { LogPort } from './ports';

/**
 * The two functions of the SQL extension's exported IExtension that we call, as declared in microsoft/vscode-mssql's
 * typings/vscode-mssql.d.ts (up to its 1.45 releases). Written here, with only what we call, because no registry
 * package carries those typings (@types/vscode-mssql does not exist).
 */
export interface SqlExtensionApi {
  connect(connectionInfo: Record<string, unknown>, saveConnection?: boolean): Promise<string>;
  getConnectionString(connectionUri: string, includePassword?: boolean, includeApplicationName?: boolean): Promise<string>;
}

/** The credential-giving part of its exports, or null when this version of the SQL extension has none. */
export function credentialApi(exports: unknown): SqlExtensionApi | null {
  const e = exports as Partial<SqlExtensionApi> | null | undefined;
  return e && typeof e.connect === 'function' && typeof e.getConnectionString === 'function' ? (e as SqlExtensionApi) : null;
}

/** Whether these exports still hand out a saved connection's credentials. */
export function sharesCredentials(exports: unknown): boolean {
  return credentialApi(exports) !== null;
}

/** One of the SQL extension's connections: how we show it, our profile for it, and its own profile to hand back. */
export interface SqlExtensionConnection {
  view: SqlExtensionConnectionView;
  profile: ConnectionProfile;
  /** The SQL extension's profile object, passed back to its connect() only; never posted, logged or saved. */
  info: Readonly<Record<string, unknown>>;
}

type Loose = Record<string, unknown>;
const isObj = (v: unknown): v is Loose => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** Our id for it: its profile id when it has one (a GUID), else a digest of where it points (never of a secret). */
function idFor(info: Loose): string {
  const own = text(info.id).replace(/[^A-Za-z0-9_-]/g, '_');
  if (own) return `mssql-${own.slice(0, 57)}`;
  const where = [info.server, info.database, info.authenticationType, info.user].map(text).join('|');
  return `mssql-${crypto.createHash('sha256').update(where).digest('base64url').slice(0, 16)}`;
}

/** A SQL extension profile (from its setting, or an Object Explorer node's connectionProfile) as ours. */
export function sqlExtensionConnection(info: unknown): SqlExtensionConnection {
  if (!isObj(info)) throw new ProfileError('The SQL extension gave a connection that is not an object.');
  if (!text(info.server)) throw new ProfileError('The SQL extension gave a connection with no server name.');
  const id = idFor(info);
  const profile = { ...profileFromMssqlNode({ connectionProfile: info }), id };
  const database = text(info.database) || null;
  return {
    view: {
      id,
      label: profile.label,
      server: text(info.server),
      database,
      authentication: profile.authentication,
      user: profile.authentication === 'ntlm' && profile.domain ? `${profile.domain}\\${profile.user}` : profile.user,
    },
    profile,
    info: { ...info },
  };
}

/** Its saved connections; one we cannot use is left out with a log line that names no field's value. */
export function sqlExtensionConnections(raw: unknown[], log: LogPort): SqlExtensionConnection[] {
  const out: SqlExtensionConnection[] = [];
  raw.forEach((p, i) => {
    try {
      const c = sqlExtensionConnection(p);
      if (!out.some((o) => o.view.id === c.view.id)) out.push(c);
    } catch (err) {
      log.warn(`left out the SQL extension's saved connection #${i + 1}: ${(err as Error).message}`);
    }
  });
  return out;
}

/**
 * The connection profile on the SQL extension's Object Explorer node (the argument of a `view/item/context` command on
 * its tree): `connectionProfile` in current versions, `connectionInfo` in older ones.
 */
export function nodeConnectionInfo(node: unknown): Loose {
  const info = isObj(node)
    ? [node.connectionProfile, node.connectionInfo, node].find((c) => isObj(c) && typeof c.server === 'string')
    : undefined;
  if (!isObj(info)) {
    throw new ProfileError(
      'This Object Explorer item has no server connection (its connectionProfile is missing); run Open in Spinlock Lab on a server, or fill in the form.',
    );
  }
  return info;
}
