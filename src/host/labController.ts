// The panel's application logic, in plain Node: it owns PanelState, checks every message from the webview against
// the protocol's schemas, and runs one handler per message (connect, deploy, run, stop, restore, history...). The host
// (VS Code, Azure Data Studio or a test) is reached only through HostPorts.
import * as path from 'node:path';
import { cleanupScenario, deployScenario } from '../engine/lab';
import { restoreServer } from '../engine/knobs';
import { defaultStateDir } from '../engine/journal';
import { getScenario } from '../engine/scenarios';
import { MessageRouter, ToHost, ToWebview, message, parseToHost, type ConnectionProfile, type PanelState, type PayloadOf, type ToHostMap, type UiError } from '../shared/protocol';
import type { ParamValue } from '../shared/experiment';
import { passwordKey, type HostPorts } from './ports';
import { defaultProfile, describeProfile, matchSavedProfile, profileToTarget, type ProfileSecret } from './profiles';
import { CONFIRM_ACTION, CONFIRM_TITLE, buildRunRequest, confirmDetail, resolveScenario } from './runRequest';
import { executeJob, executeRun, type RunOutcome } from './experimentRun';
import { analysisForExperiment, analysisInfo, blankLoad, buildPresetRun, defaultPlanViews, presetPlanView, presetSummaries } from './presetPlans';
import { runPreset } from '../engine/presetRun';
import type { ExperimentResult } from '../engine/experiment';
import { appendToNotebook } from '../engine/notebook/rerun';
import { exportTo, notebookOriginal, rerunPayload, rerunPresetArgs, saveAsNotebook } from './notebookActions';

export { CONFIRM_ACTION };
import { experimentDir, listHistory, readExperiment } from './history';
import { ServerConnection, summariseJournal } from './serverView';
import { UiFailure, toUiError } from './uiErrors';
import { restoreSelection, scenarioSummaries } from './defaults';

export interface LabControllerOptions {
  host: PanelState['host'];
  /** The restore journal folder; default the CLI's (~/.spinlab or SPINLAB_STATE_DIR), so either can restore. */
  stateDir?: string;
}

const SELECTION_KEY = 'spinlab.selection';

type Payload<K extends keyof ToHostMap> = PayloadOf<ToHostMap[K]>;

export class LabController {
  readonly state: PanelState;
  private readonly router = new MessageRouter<ToHostMap>();
  private readonly stateDir: string;
  private conn: ServerConnection | null = null;
  /** Scenarios this panel deployed on the connected server, with the parameters they were deployed with. */
  private deployed = new Map<string, string>();
  private running: { ac: AbortController; done: Promise<void> } | null = null;
  /** Aborts deploys and connects in flight when the panel closes. */
  private readonly lifetime = new AbortController();
  private disposing: Promise<void> | null = null;

  constructor(private readonly ports: HostPorts, opts: LabControllerOptions) {
    this.stateDir = opts.stateDir ?? defaultStateDir();
    this.state = {
      host: opts.host,
      profiles: ports.profiles.load(),
      savedPasswords: [],
      draft: null,
      connection: { status: 'disconnected', profileId: null, error: null },
      server: null,
      journal: null,
      scenarios: scenarioSummaries(),
      selection: restoreSelection(ports.state.get(SELECTION_KEY)),
      busy: null,
      lastError: null,
      active: null,
      history: [],
      presets: presetSummaries(),
      presetPlans: [],
    };
    this.state.draft = this.state.profiles[0] ?? defaultProfile();
    this.register();
  }

  get disposed(): boolean {
    return this.disposing !== null;
  }

  get isRunning(): boolean {
    return this.running !== null;
  }

  // ------------------------------------------------------------------ messages

  /** Every message from the webview arrives here: checked against its schema, then dispatched; never throws. */
  async receive(raw: unknown): Promise<void> {
    if (this.disposed) {
      this.ports.log.warn('ignored a message that arrived after the panel closed');
      return;
    }
    const parsed = parseToHost(raw);
    if (!parsed.ok) {
      this.ports.log.warn(`rejected a message from the webview: ${parsed.error}`);
      this.state.lastError = { message: `The panel sent a message the extension does not accept (${parsed.error}).`, fix: 'Reload the panel; if it happens again, report it.' };
      this.postState();
      return;
    }
    await this.guard(() => this.router.dispatch(parsed.message) as Promise<void> | void);
  }

  private register(): void {
    const on = <K extends keyof ToHostMap & string>(k: K, h: (p: Payload<K>) => unknown) => this.router.on<K>(ToHost[k], h);
    on('ready', () => this.postState(true));
    on('pickProfile', (p) => this.pickProfile(p.id));
    on('connect', (p) => this.connect(p.profile, p.password, p.savePassword));
    on('disconnect', () => this.disconnect());
    on('saveProfile', (p) => this.saveProfile(p.profile));
    on('deleteProfile', (p) => this.deleteProfile(p.id));
    on('refreshServer', () => this.refreshServer());
    on('select', (p) => this.select(p));
    on('deploy', (p) => this.deploy(p.scenarioId, p.parameters));
    on('cleanup', (p) => this.cleanup(p.scenarioId));
    on('run', (p) => this.run(p));
    on('stop', () => this.stop());
    on('restore', () => this.restore());
    on('openExperiment', (p) => this.openExperiment(p.id));
    on('revealExperiment', (p) => this.revealExperiment(p.id));
    on('copyText', (p) => this.copyText(p.text));
    on('saveNotebook', (p) => this.saveNotebook(p.id));
    on('exportExperiment', (p) => this.exportExperiment(p.id, p.kind));
    on('previewPreset', (p) => this.previewPreset(p));
    on('runPreset', (p) => this.runPresetIntent(p));
  }

  /** Runs an operation; any failure becomes lastError (and a log line), never an exception. */
  private async guard(fn: () => Promise<void> | void): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.fail(toUiError(err));
    }
  }

  private fail(ui: UiError): void {
    this.state.lastError = ui;
    this.state.busy = null;
    this.ports.log.error(`${ui.message}${ui.fix ? ` (fix: ${ui.fix})` : ''}`);
    this.postState();
  }

  /**
   * Sends the state. The active experiment's ticks go only in a full snapshot (the webview asked with `ready` after
   * loading); otherwise the webview already has them from `tick` messages, and an hour of ticks is megabytes.
   */
  private postState(full = false): void {
    if (this.disposed) return;
    const active = this.state.active;
    const state = full || !active ? this.state : { ...this.state, active: { ...active, runs: active.runs.map((r) => ({ ...r, ticks: [] })) } };
    this.ports.post(message(ToWebview.state, { state }));
  }

  private toast(text: string): void {
    if (!this.disposed) this.ports.post(message(ToWebview.toast, { message: text }));
  }

  private checkAlive(): void {
    if (this.disposed) throw new UiFailure({ message: 'The Spinlock Lab panel was closed.', fix: 'Open it again.' });
  }

  private requireConnection(): ServerConnection {
    this.checkAlive();
    if (!this.conn || this.state.connection.status !== 'connected') {
      throw new UiFailure({ message: 'Not connected to a server.', fix: 'Connect first.', action: 'connect' });
    }
    return this.conn;
  }

  private requireIdle(what: string): void {
    if (this.running) throw new UiFailure({ message: `An experiment is running: ${what} waits until it ends.`, fix: 'Stop the experiment first, or wait for it to finish.' });
    if (this.state.busy) throw new UiFailure({ message: `Spinlock Lab is busy (${this.state.busy}).`, fix: 'Wait for it to finish, then try again.' });
  }

  private async busy<T>(what: string, fn: () => Promise<T>): Promise<T> {
    this.state.busy = what;
    this.state.lastError = null;
    this.postState();
    try {
      return await fn();
    } finally {
      this.state.busy = null;
    }
  }

  // ------------------------------------------------------------------ profiles and connection

  /** Fills the form (e.g. from an Object Explorer node) without connecting; a server already saved keeps its id. */
  prefill(profile: ConnectionProfile): ConnectionProfile {
    this.checkAlive();
    const p = matchSavedProfile(this.state.profiles, profile);
    this.state.draft = p;
    this.state.connection.error = null;
    this.postState();
    return p;
  }

  /**
   * For the host's commands (Azure Data Studio's Object Explorer): connects with a secret the host already has.
   * It is used for this connection only, never saved. Failures show in the panel.
   */
  connectWithSecret(profile: ConnectionProfile, secret: ProfileSecret): Promise<void> {
    return this.guard(() => this.connect(profile, secret.password, false, { accessToken: secret.accessToken, fromHost: true }));
  }

  private pickProfile(id: string | null): void {
    this.state.draft = (id && this.state.profiles.find((p) => p.id === id)) || defaultProfile();
    this.state.connection.error = null;
    this.postState();
  }

  private async saveProfile(profile: ConnectionProfile): Promise<void> {
    const withLabel = { ...profile, label: profile.label || profile.server };
    const i = this.state.profiles.findIndex((p) => p.id === profile.id);
    if (i >= 0) this.state.profiles[i] = withLabel;
    else this.state.profiles.push(withLabel);
    await this.ports.profiles.save(this.state.profiles);
    this.state.draft = withLabel;
    this.postState();
  }

  private async deleteProfile(id: string): Promise<void> {
    this.state.profiles = this.state.profiles.filter((p) => p.id !== id);
    await this.ports.profiles.save(this.state.profiles);
    await this.ports.secrets.delete(passwordKey(id));
    this.state.savedPasswords = this.state.savedPasswords.filter((p) => p !== id);
    if (this.state.draft?.id === id) this.state.draft = defaultProfile();
    this.postState();
  }

  /** Reads what needs async work (which profiles have a saved password) and sends the first snapshot. */
  async start(): Promise<void> {
    await this.guard(() => this.refreshSavedPasswords());
    this.postState();
  }

  /** Which saved profiles have a password in SecretStorage (the form shows "saved"). */
  private async refreshSavedPasswords(): Promise<void> {
    const have: string[] = [];
    for (const p of this.state.profiles) if (await this.ports.secrets.get(passwordKey(p.id))) have.push(p.id);
    this.state.savedPasswords = have;
  }

  /** Connects with a profile; a password given here is used and kept in SecretStorage only when savePassword. */
  private async connect(profile: ConnectionProfile, password: string | undefined, savePassword: boolean,
    host: { accessToken?: string; fromHost?: boolean } = {}): Promise<void> {
    this.checkAlive();
    this.requireIdle('connecting');
    const typed = password !== undefined && password !== '';
    const key = passwordKey(profile.id);
    await this.closeConnection();
    this.state.draft = profile;
    this.state.connection = { status: 'connecting', profileId: profile.id, error: null };
    this.state.lastError = null;
    this.postState();
    const where = describeProfile(profile);
    try {
      const secret: ProfileSecret = {};
      if (profile.authentication === 'entra') secret.accessToken = host.accessToken ?? await this.ports.getEntraToken();
      else {
        secret.password = typed ? password : await this.ports.secrets.get(key);
        if (secret.password === undefined) {
          throw new UiFailure({ message: `Enter the password for ${where}.`, fix: 'Type it in the form; tick "Save password" to keep it in the OS keychain.', action: 'connect' });
        }
      }
      const target = profileToTarget(profile, secret);
      this.ports.log.info(`connecting to ${where}`);
      const conn = await ServerConnection.open(target, profile.labDatabase);
      if (this.disposed) {
        await conn.close();
        return;
      }
      this.conn = conn;
      this.deployed.clear();
      await this.readServer();
      this.state.connection = { status: 'connected', profileId: profile.id, error: null };
      this.ports.log.info(`connected to ${conn.identity.serverName} (${conn.identity.versionBanner})${conn.identity.simulated ? ' [SIMULATOR]' : ''}`);
    } catch (err) {
      await this.closeConnection();
      const ui = toUiError(err, { connecting: { action: `Connecting to ${where}`, login: profile.user || '(token)' } });
      this.state.connection = { status: 'disconnected', profileId: profile.id, error: ui };
      this.fail(ui);
      return;
    }
    // Remember the profile (never the secret in it), and the password only when asked.
    if (profile.authentication !== 'entra' && typed && !host.fromHost) {
      if (savePassword) await this.ports.secrets.store(key, password!);
      else await this.ports.secrets.delete(key);
    }
    const label = profile.label || profile.server;
    const i = this.state.profiles.findIndex((p) => p.id === profile.id);
    if (i >= 0) this.state.profiles[i] = { ...profile, label };
    else this.state.profiles.push({ ...profile, label });
    await this.ports.profiles.save(this.state.profiles);
    await this.refreshSavedPasswords();
    this.postState();
  }

  private async disconnect(): Promise<void> {
    this.requireIdle('disconnecting');
    await this.closeConnection();
    this.state.connection = { status: 'disconnected', profileId: this.state.connection.profileId, error: null };
    this.postState();
  }

  private async closeConnection(): Promise<void> {
    const c = this.conn;
    this.conn = null;
    this.state.server = null;
    this.state.journal = null;
    this.state.history = [];
    this.state.presetPlans = [];
    if (c) await c.close();
  }

  /** Reads identity, topology, knobs, the lab database, the journal and the history into the state. */
  private async readServer(): Promise<void> {
    const conn = this.conn!;
    const facts = await conn.read();
    this.state.server = facts;
    this.state.presetPlans = defaultPlanViews(this.facts()!);
    this.readJournalAndHistory();
  }

  /** The connected server as the run requests and preset plans need it. */
  private facts() {
    const conn = this.conn;
    const server = this.state.server;
    if (!conn || !server) return null;
    return { identity: conn.identity, topology: server.topology, knobs: server.knobs, labDatabase: conn.labDatabase };
  }

  private readJournalAndHistory(): void {
    const conn = this.conn;
    if (!conn) return;
    try {
      const j = conn.journal(this.stateDir);
      this.state.journal = j ? summariseJournal(j) : null;
    } catch (err) {
      this.state.journal = null;
      this.fail({ message: (err as Error).message, fix: 'Restore the settings it lists by hand, then delete the file.' });
    }
    this.state.history = listHistory(this.ports.settings().resultsFolder, { serverName: conn.identity.serverName }, (l) => this.ports.log.warn(l));
  }

  private async refreshKnobs(): Promise<void> {
    const conn = this.conn;
    if (!conn || !this.state.server) return;
    const { knobs, labExists, deployed } = await conn.readKnobs();
    this.state.server.knobs = knobs;
    this.state.server.labExists = labExists;
    this.state.server.deployed = deployed;
  }

  private async refreshServer(): Promise<void> {
    this.requireConnection();
    await this.busy('reading the server', () => this.readServer());
    this.postState();
  }

  private select(p: Payload<'select'>): Promise<void> {
    this.state.selection = { scenarioId: p.scenarioId, parameters: p.parameters, run: p.run, knobs: p.knobs };
    return this.ports.state.update(SELECTION_KEY, this.state.selection);
  }

  // ------------------------------------------------------------------ lab database

  private async deploy(scenarioId: string, parameters: Record<string, ParamValue>): Promise<void> {
    const conn = this.requireConnection();
    this.requireIdle('deploy');
    const r = resolveScenario(scenarioId, parameters);
    await this.busy(`deploying ${r.scenarioId}`, async () => {
      await deployScenario(conn.target, await conn.session(), conn.identity, conn.labDatabase, getScenario(r.scenarioId), r.parameters,
        (m) => this.ports.log.info(`deploy ${r.scenarioId}: ${m}`), this.lifetime.signal);
      this.deployed.set(r.scenarioId, JSON.stringify(r.parameters));
      await this.refreshKnobs();
    });
    this.toast(`Deployed ${r.scenarioId} into [${conn.labDatabase}]`);
    this.postState();
  }

  private async cleanup(scenarioId: string): Promise<void> {
    const conn = this.requireConnection();
    this.requireIdle('cleanup');
    const r = resolveScenario(scenarioId, scenarioId === this.state.selection.scenarioId ? this.state.selection.parameters : {});
    await this.busy(`removing ${r.scenarioId}`, async () => {
      await cleanupScenario(conn.target, await conn.session(), conn.identity, conn.labDatabase, getScenario(r.scenarioId), r.parameters,
        (m) => this.ports.log.info(`cleanup ${r.scenarioId}: ${m}`));
      this.deployed.delete(r.scenarioId);
      await this.refreshKnobs();
    });
    this.toast(`Removed ${r.scenarioId} from [${conn.labDatabase}]`);
    this.postState();
  }

  // ------------------------------------------------------------------ experiments

  /** Refuses a run while this server has an unrestored journal (the Restore action puts it back). */
  private async checkJournal(): Promise<void> {
    await this.refreshKnobs();
    this.readJournalAndHistory();
    if (this.state.journal) {
      throw new UiFailure({
        message: `An earlier experiment (process ${this.state.journal.pid}, ${this.state.journal.createdAt}) changed ${this.state.journal.changes.join(' and ')} on this server and did not put it back.`,
        fix: `Press Restore to put back: ${this.state.journal.original}.`,
        action: 'restore',
      });
    }
  }

  /** Asks before server-wide changes; false when the user declined (nothing was changed). */
  private async confirmChanges(conn: ServerConnection, changes: string[]): Promise<boolean> {
    if (!changes.length || !this.ports.settings().confirmServerChanges) return true;
    const ok = await this.ports.confirm(CONFIRM_TITLE, confirmDetail(conn.identity.serverName, changes), CONFIRM_ACTION);
    if (!ok) {
      this.ports.log.info('run cancelled at the confirmation: nothing was changed');
      return false;
    }
    this.checkAlive();
    if (this.conn !== conn) throw new UiFailure({ message: 'The connection changed while the question was open; nothing was run.', fix: 'Run again.' });
    if (this.running) throw new UiFailure({ message: 'Another experiment started meanwhile.', fix: 'Stop it first.' });
    return true;
  }

  /** Runs an experiment job as the active one: Stop and the panel's close abort it; the knobs and history are re-read after. */
  private async runActive(execute: (hooks: Parameters<typeof executeJob>[1]) => Promise<RunOutcome>): Promise<RunOutcome> {
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => { resolveDone = r; });
    let outcome: RunOutcome;
    try {
      outcome = await execute({
        ports: this.ports,
        disposed: () => this.disposed,
        postState: () => this.postState(),
        started: (view, ac) => {
          this.running = { ac, done };
          this.state.active = view;
          this.state.lastError = null;
          this.postState();
        },
      });
      if (outcome.error) this.state.lastError = outcome.error;
    } finally {
      this.running = null;
      resolveDone();
    }
    if (this.disposed) return outcome;
    await this.guard(async () => {
      await this.refreshKnobs();
      this.readJournalAndHistory();
    });
    this.postState();
    return outcome;
  }

  private async run(p: Payload<'run'>): Promise<ExperimentResult | null> {
    const conn = this.requireConnection();
    this.requireIdle('another run');
    await this.checkJournal();
    const req = buildRunRequest(p, this.facts()!);
    const scenario = getScenario(req.scenarioId);
    const title = p.title?.trim() || `${scenario.name}: ${req.load.threads.join(', ')} threads`;
    if (!(await this.confirmChanges(conn, req.changes))) return null;
    for (const c of req.changes) this.ports.log.info(`will change ${c}`);
    const settings = this.ports.settings();
    const deploy = this.deployed.get(req.scenarioId) !== JSON.stringify(req.parameters);
    const outcome = await this.runActive((hooks) => executeRun({ conn, req, title, question: p.question?.trim() || undefined, deploy,
      resultsFolder: settings.resultsFolder, stateDir: this.stateDir }, hooks));
    if (outcome.result && deploy) this.deployed.set(req.scenarioId, JSON.stringify(req.parameters));
    return outcome.result;
  }

  // ------------------------------------------------------------------ presets

  /** Plans a preset for this server with the settings as typed; the plan (or its problems) replaces its entry. */
  private previewPreset(p: Payload<'previewPreset'>): void {
    const facts = this.facts();
    if (!facts) return;
    const view = presetPlanView(p.presetId, p.settings, p.load, facts);
    const i = this.state.presetPlans.findIndex((x) => x.presetId === p.presetId);
    if (i >= 0) this.state.presetPlans[i] = view;
    else this.state.presetPlans.push(view);
    this.postState();
  }

  private runPresetIntent(p: Payload<'runPreset'>): Promise<ExperimentResult | null> {
    return this.runPresetNow(p.presetId, p.settings, p.load, p.title);
  }

  /**
   * A preset as one experiment of several arms, through the same path as a run: the journal check, the confirmation
   * naming every server-wide change of every arm, cancellable progress, live ticks with the arm, knobs restored by the
   * engine, saved to the history.
   */
  async runPresetNow(presetId: string, settings: Record<string, ParamValue>, load = blankLoad(), title?: string): Promise<ExperimentResult | null> {
    const conn = this.requireConnection();
    this.requireIdle('another run');
    await this.checkJournal();
    const facts = this.facts()!;
    const { req, plan, changes } = buildPresetRun(presetId, settings, load, facts);
    if (!(await this.confirmChanges(conn, changes))) return null;
    for (const c of changes) this.ports.log.info(`will change ${c}`);
    for (const n of plan.notes) this.ports.log.info(`preset ${presetId}: ${n}`);
    const runCount = plan.arms.reduce((n, a) => n + a.threads.length, 0);
    const name = title?.trim() || `${req.preset.name} (preset ${req.preset.id})`;
    const outcome = await this.runActive((hooks) => executeJob({
      conn,
      idBase: req.preset.id,
      scenarioId: plan.arms[0].scenarioId,
      title: name,
      runCount,
      describe: `preset ${req.preset.id}, ${plan.arms.length} arms (${plan.arms.map((a) => `${a.id}: ${a.threads.join(',')}`).join('; ')})`,
      resultsFolder: this.ports.settings().resultsFolder,
      prepare: (view) => { view.preset = analysisInfo(req.preset, plan); },
      start: ({ id, outDir }, signal, progress) => runPreset(req, { target: conn.target, labDatabase: conn.labDatabase, outDir, title: name, stateDir: this.stateDir, id },
        signal, progress, (actual) => {
          // The engine plans again from the server it reads: show that plan (the same unless the server changed).
          const view = this.state.active;
          if (view && view.experimentId === id) view.preset = analysisInfo(req.preset, actual);
        }),
    }, hooks));
    // Every scenario the arms deployed is now in the lab database with the parameters of the last arm that used it.
    if (outcome.result) for (const a of plan.arms) this.deployed.set(a.scenarioId, JSON.stringify(a.parameters));
    return outcome.result;
  }

  /** Stops the running experiment (its knobs are restored by the engine). */
  stop(): boolean {
    if (!this.running) return false;
    this.ports.log.info('stopping the experiment');
    this.running.ac.abort();
    return true;
  }

  /** Puts back what this server's restore journal recorded, as `spinlab restore` does. */
  async restore(): Promise<void> {
    const conn = this.requireConnection();
    this.requireIdle('restore');
    const r = await this.busy('restoring server settings', async () => {
      const result = await restoreServer(await conn.session(), conn.identity, conn.target, this.stateDir);
      await this.refreshKnobs();
      this.readJournalAndHistory();
      return result;
    });
    const said = r.restored ? (r.actions.length ? r.actions.join('; ') : 'the server already matched the journal') : 'nothing to restore: no journal for this server';
    this.ports.log.info(`restore: ${said}`);
    this.toast(r.restored ? `Restored: ${said}` : `Nothing to restore for ${conn.identity.serverName}`);
    this.postState();
  }

  /** For the commands: runs restore with failures shown in the panel. */
  restoreCommand(): Promise<void> {
    return this.guard(() => this.restore());
  }

  private openExperiment(id: string): void {
    const experiment = readExperiment(this.ports.settings().resultsFolder, id);
    this.ports.post(message(ToWebview.experiment, { experiment, preset: analysisForExperiment(experiment) }));
  }

  private async revealExperiment(id: string): Promise<void> {
    const dir = experimentDir(this.ports.settings().resultsFolder, id);
    if (!dir) throw new UiFailure({ message: `"${id}" is not an experiment of this folder.` });
    await this.ports.revealPath(path.join(dir, 'experiment.json'));
  }

  private async saveNotebook(id: string): Promise<void> {
    const file = await saveAsNotebook(this.ports, readExperiment(this.ports.settings().resultsFolder, id));
    if (!file) return;
    this.toast(`Saved ${path.basename(file)}`);
    await this.ports.openFile(file);
  }

  private async exportExperiment(id: string, kind: 'csv' | 'tsql'): Promise<void> {
    const dir = await exportTo(this.ports, readExperiment(this.ports.settings().resultsFolder, id), kind);
    if (!dir) return;
    this.toast(`Exported to ${dir}`);
    await this.ports.revealPath(dir);
  }

  /**
   * "Run this experiment again": the notebook's original experiment, repeated on the connected server through the same
   * confirmed, cancellable run as the Run button; the new experiment is then added to the notebook beside the others.
   */
  async rerunNotebook(file: string): Promise<void> {
    await this.guard(async () => {
      const original = notebookOriginal(file);
      if (!this.conn) {
        throw new UiFailure({ message: `Connect to the server to run "${original.title}" against, then choose Run This Experiment Again on the notebook.`, action: 'connect' });
      }
      const preset = rerunPresetArgs(original);
      const result = preset
        ? await this.runPresetNow(preset.presetId, preset.settings, preset.load, preset.title)
        : await this.run(rerunPayload(original));
      if (!result) return;
      const all = appendToNotebook(file, result.experiment);
      this.ports.log.info(`added ${result.experiment.id} to ${file} (${all.length} experiments)`);
      this.toast(`Added the re-run to ${path.basename(file)} (${all.length} experiments)`);
      await this.ports.openFile(file);
    });
  }

  private async copyText(text: string): Promise<void> {
    await this.ports.copyToClipboard(text);
    this.toast('Copied');
  }

  // ------------------------------------------------------------------ lifetime

  /** Aborts a running experiment (its knobs are put back), waits for it, and closes the connection. Idempotent. */
  dispose(): Promise<void> {
    if (this.disposing) return this.disposing;
    this.disposing = (async () => {
      this.lifetime.abort();
      const r = this.running;
      if (r) {
        this.ports.log.info('the panel closed: stopping the experiment and restoring the server settings');
        r.ac.abort();
        await r.done;
      }
      await this.closeConnection().catch(() => undefined);
    })();
    return this.disposing;
  }
}

