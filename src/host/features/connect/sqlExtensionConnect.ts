// Connecting with one of Microsoft's SQL extension's connections (host/sqlExtension.ts): from the panel's list, the
// Activity Bar or its Object Explorer. A SQL login's or Windows password comes from that extension at connect time and
// is used for this connect only: never saved in SecretStorage, our profiles, the state or the log. Microsoft Entra
// connections sign in as ours do (VS Code's Microsoft account). When the installed SQL extension no longer hands out
// credentials, the form is filled instead and asks for the password once. Without the SQL extension nothing here runs.
import type { ConnectionProfile } from '../../../shared/protocol';
import type { ProfileSecret } from '../../profiles';
import { parseConnectionString } from '../../../engine/connection';
import { ProfileError } from '../../profiles';
import {
  credentialApi,
  nodeConnectionInfo,
  sharesCredentials,
  sqlExtensionConnection,
  sqlExtensionConnections,
  type SqlExtensionConnection,
} from '../../sqlExtension';
import { UiFailure } from '../../uiErrors';
import type { PanelContext } from '../../panelContext';

/** Opens our connection with a secret handed in; `keep` false: not added to our saved profiles. */
type ConnectWith = (profile: ConnectionProfile, secret: ProfileSecret, keep: boolean) => Promise<void>;
/** Fills the form (a server already saved keeps its id); returns the profile as filled. */
type Prefill = (profile: ConnectionProfile) => ConnectionProfile;

/**
 * The password for a SQL login or Windows connection, from the SQL extension at connect time: null when its API
 * offers no credentials (then our form asks). Its own failure is reworded: its message quotes the connection info,
 * which by then may hold the password it looked up.
 */
async function sqlExtensionSecret(exports: unknown, c: SqlExtensionConnection): Promise<ProfileSecret | null> {
  const api = credentialApi(exports);
  if (!api) return null;
  let connectionString: string;
  try {
    // A copy: the SQL extension writes the password it finds into the object it is given.
    const uri = await api.connect({ ...c.info }, false);
    connectionString = await api.getConnectionString(uri, true, false);
  } catch {
    throw new ProfileError(
      `Microsoft's SQL extension could not open its connection "${c.view.label}" (${c.view.server}); connect with it in the SQL extension to see why, or fill in the form.`,
    );
  }
  let password: string | undefined;
  try {
    password = parseConnectionString(connectionString).password;
  } catch {
    throw new ProfileError(`Microsoft's SQL extension gave a connection string for "${c.view.label}" that Spinlock Lab cannot read.`);
  }
  return password ? { password } : null;
}

export class SqlExtensionConnects {
  private connections: SqlExtensionConnection[] = [];

  constructor(
    private readonly s: PanelContext,
    private readonly connectWith: ConnectWith,
    private readonly prefill: Prefill,
  ) {}

  /** Reads the SQL extension's saved connections into the state (none, and no state, when it is not installed). */
  async load(): Promise<void> {
    const port = this.s.ports.sqlExtension;
    const raw = port?.savedProfiles() ?? null;
    if (!port || raw === null) {
      this.connections = [];
      this.s.state.sqlExtension = null;
      return;
    }
    this.connections = sqlExtensionConnections(raw, this.s.ports.log);
    // Only an already active SQL extension is asked here: opening the panel does not start it.
    const exports = await port.exports(false);
    this.s.state.sqlExtension = {
      connections: this.connections.map((c) => c.view),
      sharesCredentials: exports === undefined ? (this.s.state.sqlExtension?.sharesCredentials ?? null) : sharesCredentials(exports),
    };
  }

  /** A connection from the list (panel or Activity Bar), by its id. */
  async connectById(id: string): Promise<void> {
    let c = this.connections.find((x) => x.view.id === id);
    if (!c) {
      await this.load(); // changed in the SQL extension since the panel read them
      c = this.connections.find((x) => x.view.id === id);
    }
    if (!c) {
      throw new UiFailure({
        message: `Microsoft's SQL extension has no saved connection ${JSON.stringify(id.slice(0, 80))} (any more).`,
        fix: 'Pick one from the list again.',
        action: 'connect',
      });
    }
    await this.connect(c);
  }

  /** "Open in Spinlock Lab" on the SQL extension's Object Explorer: the node's connection profile, connected at once. */
  connectNode(node: unknown): Promise<void> {
    return this.connect(sqlExtensionConnection(nodeConnectionInfo(node)));
  }

  private async connect(c: SqlExtensionConnection): Promise<void> {
    this.s.checkAlive();
    this.s.requireIdle('connecting');
    if (c.profile.authentication === 'entra') return this.connectWith(c.profile, {}, false);
    const port = this.s.ports.sqlExtension;
    const exports = port ? await port.exports(true) : undefined;
    if (this.s.state.sqlExtension) this.s.state.sqlExtension.sharesCredentials = sharesCredentials(exports);
    const secret = await sqlExtensionSecret(exports, c);
    if (secret) return this.connectWith(c.profile, secret, false);
    // This SQL extension keeps its passwords to itself: the form, filled, asks once (a profile of ours for the same
    // server and login keeps its saved password).
    const filled = this.prefill(c.profile);
    if (this.s.state.savedPasswords.includes(filled.id)) return this.connectWith(filled, {}, true);
    this.s.state.connection.error = {
      message: `Microsoft's SQL extension (this version) does not share the password of "${c.view.label}" with other extensions.`,
      fix: 'Type it once in the Password field; tick "Save password" to keep it in VS Code\'s secret storage.',
      action: 'connect',
      control: 'password',
    };
    this.s.postState();
  }
}
