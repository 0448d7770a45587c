// Profiles and the connection: the form's saved servers, connecting (password from the form or SecretStorage, or a
// token), disconnecting, re-reading the server, and the form's remembered choices. Before the connection changes,
// whatever runs on it is told (PanelContext.connectionChanging) and waited for.
import type { ConnectionProfile } from '../../../shared/protocol';
import { passwordKey } from '../../ports';
import { defaultProfile, describeProfile, matchSavedProfile, profileToTarget, type ProfileSecret } from '../../profiles';
import { ServerConnection } from '../../serverView';
import { UiFailure, toUiError } from '../../uiErrors';
import { panelConnectError } from '../../connectUi';
import { SELECTION_KEY, type PanelContext } from '../../panelContext';
import type { FeatureRegistry, PanelFeature, Payload } from '../feature';
import { SqlExtensionConnects } from './sqlExtensionConnect';

/** Fills the form (e.g. from an Object Explorer node) without connecting; a server already saved keeps its id. */
export function prefill(s: PanelContext, profile: ConnectionProfile): ConnectionProfile {
  s.checkAlive();
  const p = matchSavedProfile(s.state.profiles, profile);
  s.state.draft = p;
  s.state.connection.error = null;
  s.postState();
  return p;
}

export function pickProfile(s: PanelContext, id: string | null): void {
  s.state.draft = (id && s.state.profiles.find((p) => p.id === id)) || defaultProfile();
  s.state.connection.error = null;
  s.postState();
}

export async function saveProfile(s: PanelContext, profile: ConnectionProfile): Promise<void> {
  const withLabel = { ...profile, label: profile.label || profile.server };
  const i = s.state.profiles.findIndex((p) => p.id === profile.id);
  if (i >= 0) s.state.profiles[i] = withLabel;
  else s.state.profiles.push(withLabel);
  await s.ports.profiles.save(s.state.profiles);
  s.state.draft = withLabel;
  s.postState();
}

export async function deleteProfile(s: PanelContext, id: string): Promise<void> {
  s.state.profiles = s.state.profiles.filter((p) => p.id !== id);
  await s.ports.profiles.save(s.state.profiles);
  await s.ports.secrets.delete(passwordKey(id));
  s.state.savedPasswords = s.state.savedPasswords.filter((p) => p !== id);
  if (s.state.draft?.id === id) s.state.draft = defaultProfile();
  s.postState();
}

/** Which saved profiles have a password in SecretStorage (the form shows "saved"). */
export async function refreshSavedPasswords(s: PanelContext): Promise<void> {
  const have: string[] = [];
  for (const p of s.state.profiles) if (await s.ports.secrets.get(passwordKey(p.id))) have.push(p.id);
  s.state.savedPasswords = have;
}

/** Connects with a profile; a password given here is used and kept in SecretStorage only when savePassword. */
export async function connect(
  s: PanelContext,
  profile: ConnectionProfile,
  password: string | undefined,
  savePassword: boolean,
  editor: EditorConnectOptions = {},
): Promise<void> {
  s.checkAlive();
  s.requireIdle('connecting');
  const typed = password !== undefined && password !== '';
  const key = passwordKey(profile.id);
  await s.connectionChanging.fire(`the panel connected to ${describeProfile(profile)}`);
  await s.closeConnection();
  s.state.draft = profile;
  s.state.connection = { status: 'connecting', profileId: profile.id, error: null };
  s.state.lastError = null;
  s.postState();
  const where = describeProfile(profile);
  try {
    const secret: ProfileSecret = {};
    if (profile.authentication === 'entra') secret.accessToken = editor.accessToken ?? (await s.ports.getEntraToken());
    else {
      secret.password = typed ? password : await s.ports.secrets.get(key);
      if (secret.password === undefined) {
        throw new UiFailure({
          message: `Enter the password for ${where}.`,
          fix: 'Type it in the form; tick "Save password" to keep it in the OS keychain.',
          action: 'connect',
        });
      }
    }
    const target = profileToTarget(profile, secret);
    s.ports.log.info(`connecting to ${where}`);
    const conn = await ServerConnection.open(target, profile.labDatabase);
    if (s.disposed) {
      await conn.close();
      return;
    }
    s.adoptConnection(conn);
    await s.readServer();
    s.state.connection = { status: 'connected', profileId: profile.id, error: null };
    s.ports.log.info(
      `connected to ${conn.identity.serverName} (${conn.identity.versionBanner})${conn.identity.simulated ? ' [SIMULATOR]' : ''}`,
    );
  } catch (err) {
    await s.closeConnection();
    const words = { ...profile, port: profile.port ?? undefined, instanceName: profile.instanceName || undefined };
    const said = panelConnectError(err, {
      ...words,
      authentication: profile.authentication === 'entra' ? 'azure-active-directory-access-token' : profile.authentication,
    });
    const ui = said ?? toUiError(err, { connecting: { action: `Connecting to ${where}`, login: profile.user || '(token)' } });
    s.state.connection = { status: 'disconnected', profileId: profile.id, error: ui };
    s.fail(ui);
    return;
  }
  // Remember the profile (never the secret in it), and the password only when asked.
  if (profile.authentication !== 'entra' && typed && !editor.fromHost) {
    if (savePassword) await s.ports.secrets.store(key, password!);
    else await s.ports.secrets.delete(key);
  }
  if (editor.keepProfile !== false) {
    const label = profile.label || profile.server;
    const i = s.state.profiles.findIndex((p) => p.id === profile.id);
    if (i >= 0) s.state.profiles[i] = { ...profile, label };
    else s.state.profiles.push({ ...profile, label });
    await s.ports.profiles.save(s.state.profiles);
    await refreshSavedPasswords(s);
  }
  s.postState();
  await s.connected.fire();
}

export async function disconnect(s: PanelContext): Promise<void> {
  s.requireIdle('disconnecting');
  // A watch runs on connections of its own: disconnecting ends it too, its ticks kept (features/watch).
  await s.connectionChanging.fire('the panel disconnected from the server');
  await s.closeConnection();
  s.state.connection = { status: 'disconnected', profileId: s.state.connection.profileId, error: null };
  s.postState();
}

export async function refreshServer(s: PanelContext): Promise<void> {
  s.requireConnection();
  await s.busy('reading the server', () => s.readServer());
  s.postState();
}

export function select(s: PanelContext, p: Payload<'selectionSave'>): Promise<void> {
  s.state.selection = { scenarioId: p.scenarioId, parameters: p.parameters, run: p.run, knobs: p.knobs };
  return s.ports.state.update(SELECTION_KEY, s.state.selection);
}

/** A connect the editor asked for (Azure Data Studio's Object Explorer hands in its own secret, never saved). */
export interface EditorConnectOptions {
  accessToken?: string;
  fromHost?: boolean;
  /** false: a connection another extension keeps (Microsoft's SQL extension's) is not added to our saved profiles. */
  keepProfile?: boolean;
}

export class ConnectFeature implements PanelFeature {
  private panel!: PanelContext;
  /** Microsoft's SQL extension's connections (features/connect/sqlExtensionConnect.ts). */
  sqlExtension!: SqlExtensionConnects;

  register(r: FeatureRegistry): void {
    const s = (this.panel = r.panel);
    this.sqlExtension = new SqlExtensionConnects(
      s,
      (profile, secret, keep) =>
        connect(s, profile, secret.password, false, { accessToken: secret.accessToken, fromHost: true, keepProfile: keep }),
      (profile) => prefill(s, profile),
    );
    r.on('profilePick', (p) => pickProfile(s, p.id));
    r.on('profileSave', (p) => saveProfile(s, p.profile));
    r.on('profileDelete', (p) => deleteProfile(s, p.id));
    r.on('connectionOpen', (p) => connect(s, p.profile, p.password, p.savePassword));
    r.on('connectionClose', () => disconnect(s));
    r.on('sqlExtensionConnect', (p) => this.sqlExtension.connectById(p.id));
    r.on('serverRefresh', () => refreshServer(s));
    r.on('selectionSave', (p) => select(s, p));
  }

  async start(): Promise<void> {
    await refreshSavedPasswords(this.panel);
    await this.sqlExtension.load();
  }

  prefill(profile: ConnectionProfile): ConnectionProfile {
    return prefill(this.panel, profile);
  }

  connectWithSecret(profile: ConnectionProfile, secret: ProfileSecret): Promise<void> {
    return connect(this.panel, profile, secret.password, false, { accessToken: secret.accessToken, fromHost: true });
  }
}
