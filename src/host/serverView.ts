// One connection to a server as the panel holds it: the admin session (master), who and what the server is, its
// knobs and lab database, and this server's unrestored restore journal. The target (with its secret) stays in here.
import { DbSession } from '../db/client';
import { describeTarget, type DbTarget } from '../db/target';
import { SpinlabError, grantFor } from '../engine/errors';
import { journalFor, readKnobState } from '../engine/knobs';
import type { Journal } from '../engine/journal';
import { deployedScenarios, probeLab } from '../engine/lab';
import { readIdentity, readTopology } from '../engine/server';
import type { KnobState } from '../shared/experiment';
import type { ServerIdentity, Topology } from '../shared/types';
import { featureVersion } from '../shared/serverLevel';
export { summariseJournal } from './journalView';

export interface ServerFactsRead {
  identity: ServerIdentity;
  topology: Topology;
  knobs: KnobState;
  labExists: boolean;
  /** Scenarios whose tables are in the lab database. */
  deployed: string[];
}

export class ServerConnection {
  private closed = false;

  private constructor(
    readonly target: DbTarget,
    readonly labDatabase: string,
    private admin: DbSession,
    readonly identity: ServerIdentity,
  ) {}

  /** Opens the admin session and checks the login may read the DMVs (else the GRANT that fixes it). */
  static async open(target: DbTarget, labDatabase: string): Promise<ServerConnection> {
    const admin = await DbSession.open(target, { database: 'master', appName: 'Spinlock Lab' });
    try {
      const identity = await readIdentity(admin);
      if (!identity.permissions.viewServerState) {
        throw new SpinlabError(
          'permission',
          `The login ${identity.login} lacks VIEW SERVER STATE, which every DMV Spinlock Lab reads needs.`,
          grantFor('VIEW SERVER STATE', identity.login, featureVersion(identity)),
        );
      }
      return new ServerConnection(target, labDatabase, admin, identity);
    } catch (err) {
      await admin.close();
      throw err;
    }
  }

  get description(): string {
    return describeTarget(this.target);
  }

  /** The admin session, reopened when the server dropped it. */
  async session(): Promise<DbSession> {
    if (this.closed) throw new SpinlabError('connection', 'The connection is closed.', 'Connect again.');
    if (!this.admin.connected) {
      await this.admin.close();
      this.admin = await DbSession.open(this.target, { database: 'master', appName: 'Spinlock Lab' });
    }
    return this.admin;
  }

  async read(): Promise<ServerFactsRead> {
    const admin = await this.session();
    const { topology, startTime } = await readTopology(admin, this.identity);
    this.identity.startTime = startTime;
    const knobs = await readKnobState(admin, this.labDatabase);
    const { labExists, deployed } = await this.readLab(admin);
    return { identity: this.identity, topology, knobs, labExists, deployed };
  }

  async readKnobs(): Promise<{ knobs: KnobState; labExists: boolean; deployed: string[] }> {
    const admin = await this.session();
    return { knobs: await readKnobState(admin, this.labDatabase), ...(await this.readLab(admin)) };
  }

  /** Whether the lab database exists and which scenarios have their tables in it (only if it is Spinlock Lab's). */
  private async readLab(admin: DbSession): Promise<{ labExists: boolean; deployed: string[] }> {
    const probe = await probeLab(admin, this.labDatabase);
    return { labExists: probe.exists, deployed: probe.exists && probe.ours ? await deployedScenarios(admin, this.labDatabase) : [] };
  }

  journal(stateDir: string): Journal | null {
    return journalFor(this.identity, this.target, stateDir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.admin.close();
  }
}
