// What the panel's features share: the PanelState the webview renders, the connection, the running experiment, and the
// small rules every feature follows (post the state, turn failures into lastError, refuse work while busy or closed).
// Each feature (src/host/features/*) keeps its own state; this holds only what several of them read. The connection
// and the running experiment are changed through methods, so no feature can swap them behind another's back.
import * as path from 'node:path';
import { defaultStateDir } from '../engine/journal';
import { message, ToWebview, type PanelState, type UiError } from '../shared/protocol';
import { DisposableStore, Emitter, type Disposable } from '../shared/disposables';
import { fullStatePayload, STATE_TICKS, type StateTicks } from '../shared/stateSnapshot';
import type { HostPorts } from './ports';
import type { CaptureStacks } from './features/stacks/stacksCapture';
import type { TuneRunner } from './features/tune/tuneRunner';
import { defaultProfile } from './profiles';
import { presetSummaries, defaultPlanViews } from './presetPlans';
import { listHistory } from './history';
import { ServerConnection, summariseJournal } from './serverView';
import { readCheck } from './checkView';
import { ownedByRun } from './journalView';
import { UiFailure, toUiError } from './uiErrors';
import { restoreSelection, scenarioSummaries } from './defaults';
import { RunningExperiment } from './runningExperiment';

export interface LabControllerOptions {
  /** The editor the panel runs in (VS Code or Azure Data Studio): PanelState.editor, which the webview shows. */
  editor: PanelState['editor'];
  /** The restore journal folder; default the CLI's (~/.spinlab or SPINLAB_STATE_DIR), so either can restore. */
  stateDir?: string;
  /** The engine's stack capture ("Why is it spinning?", features/stacks); tests hand in their own. */
  captureStacks?: CaptureStacks;
  /** The engine's search ("Find the best settings", features/tune); tests hand in their own. */
  runTune?: TuneRunner;
}

export const SELECTION_KEY = 'spinlab.selection';

export class PanelContext {
  readonly state: PanelState;
  readonly stateDir: string;
  /** Scenarios this panel deployed on the connected server, with the parameters they were deployed with. */
  readonly deployed = new Map<string, string>();
  /** The running experiment; only the code that began it ends it. */
  readonly experiment = new RunningExperiment();
  /** Told (and awaited) before the panel drops its connection for another or none: a watch on it ends first. */
  readonly connectionChanging = new Emitter<string>();
  /** Told after a (re)loaded webview got its full snapshot: a feature sends again what the snapshot does not hold. */
  readonly webviewReady = new Emitter<void>();
  /** Told once a connect has finished (state.connection is 'connected'): the Now view starts reading. */
  readonly connected = new Emitter<void>();
  /** Told when the panel is shown (true) or hidden (false) in the editor: the Now view reads only while shown. */
  readonly visibility = new Emitter<boolean>();
  /** How a full snapshot carries the active ticks: the plainest the webview asked for (stateResend). */
  private stateTicks: StateTicks = 'columns';
  private conn: ServerConnection | null = null;
  /** The background read of readServerLive, and whether another was asked for meanwhile. */
  private liveRead: Promise<void> | null = null;
  private liveReadAgain = false;
  /** Aborts deploys, connects, watches and captures in flight when the panel closes. */
  private readonly lifetime = new AbortController();

  /** @param store the controller's: disposed means the panel closed. */
  constructor(
    readonly ports: HostPorts,
    opts: LabControllerOptions,
    private readonly store: DisposableStore,
  ) {
    this.stateDir = opts.stateDir ?? defaultStateDir();
    this.state = {
      editor: opts.editor,
      profiles: ports.profiles.load(),
      savedPasswords: [],
      draft: null,
      connection: { status: 'disconnected', profileId: null, error: null },
      server: null,
      journal: null,
      runJournal: null,
      scenarios: scenarioSummaries(),
      selection: restoreSelection(ports.state.get(SELECTION_KEY)),
      busy: null,
      lastError: null,
      active: null,
      history: [],
      presets: presetSummaries(),
      presetPlans: [],
      watch: null,
    };
    this.state.draft = this.state.profiles[0] ?? defaultProfile();
    // Registered first, so disposed last: the connection closes after every feature has ended what ran on it.
    store.add(() => this.closeConnection().catch(() => undefined));
    store.add(this.connectionChanging);
    store.add(this.webviewReady);
    store.add(this.connected);
    store.add(this.visibility);
    store.add(async () => {
      if (!this.experiment.isRunning) return;
      this.ports.log.info('the panel closed: stopping the experiment and restoring the server settings');
      this.experiment.stop();
      await this.experiment.finished();
    });
  }

  get disposed(): boolean {
    return this.store.isDisposed;
  }

  /** Aborted when the panel closes. */
  get signal(): AbortSignal {
    return this.lifetime.signal;
  }

  /** Registers what the panel's close must end (it runs before what was registered earlier). */
  add<T extends Disposable>(d: T): T;
  add(fn: () => void | Promise<void>): Disposable;
  add(d: Disposable | (() => void | Promise<void>)): Disposable {
    return typeof d === 'function' ? this.store.add(d) : this.store.add(d);
  }

  /** Aborts the lifetime signal: registered after every feature, so it runs first on close. */
  registerLifetime(): void {
    this.store.add(() => this.lifetime.abort());
  }

  /** The open connection, or null (connected or not, see state.connection.status). */
  connection(): ServerConnection | null {
    return this.conn;
  }

  /**
   * Makes `conn` the panel's connection; nothing is known deployed on it yet. A connect closes the old one before it
   * opens this, but two connects can overlap: the one that lost is closed here rather than left open.
   */
  adoptConnection(conn: ServerConnection): void {
    const old = this.conn;
    this.conn = conn;
    this.deployed.clear();
    if (old && old !== conn) void old.close().catch(() => undefined);
  }

  /** Runs an operation; any failure becomes lastError (and a log line), never an exception. */
  async guard(fn: () => Promise<void> | void): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.fail(toUiError(err));
    }
  }

  fail(ui: UiError): void {
    this.state.lastError = ui;
    this.state.busy = null;
    this.ports.log.error(`${ui.message}${ui.fix ? ` (fix: ${ui.fix})` : ''}`);
    this.postState();
  }

  /**
   * Sends the state. The active experiment's ticks go only in a full snapshot (the webview asked with `ready` after
   * loading), as columns (shared/stateSnapshot.ts); otherwise the webview already has them from `runTick` messages.
   */
  postState(full = false): void {
    if (this.disposed) return;
    const active = this.state.active;
    let state =
      full || !active ? this.state : { ...this.state, active: { ...active, runs: active.runs.map((r) => ({ ...r, ticks: [] })) } };
    const watch = this.state.watch;
    if (!full && watch?.recent.length) state = { ...state, watch: { ...watch, recent: [] } };
    this.ports.post(message(ToWebview.state, full ? fullStatePayload(state, this.stateTicks) : { state }));
  }

  /** Full snapshots from now on carry their ticks this way, or a plainer one already asked for (never back). */
  useStateTicks(ticks: StateTicks): void {
    if (STATE_TICKS.indexOf(ticks) > STATE_TICKS.indexOf(this.stateTicks)) this.stateTicks = ticks;
  }

  toast(text: string): void {
    if (!this.disposed) this.ports.post(message(ToWebview.toast, { message: text }));
  }

  checkAlive(): void {
    if (this.disposed) throw new UiFailure({ message: 'The Spinlock Lab panel was closed.', fix: 'Open it again.' });
  }

  requireConnection(): ServerConnection {
    this.checkAlive();
    if (!this.conn || this.state.connection.status !== 'connected') {
      throw new UiFailure({ message: 'Not connected to a server.', fix: 'Connect first.', action: 'connect' });
    }
    return this.conn;
  }

  requireIdle(what: string): void {
    if (this.experiment.isRunning)
      throw new UiFailure({
        message: `An experiment is running: ${what} waits until it ends.`,
        fix: 'Stop the experiment first, or wait for it to finish.',
      });
    if (this.state.busy)
      throw new UiFailure({ message: `Spinlock Lab is busy (${this.state.busy}).`, fix: 'Wait for it to finish, then try again.' });
  }

  async busy<T>(what: string, fn: () => Promise<T>): Promise<T> {
    this.state.busy = what;
    this.state.lastError = null;
    this.postState();
    try {
      return await fn();
    } finally {
      this.state.busy = null;
    }
  }

  async closeConnection(): Promise<void> {
    const c = this.conn;
    this.conn = null;
    this.state.server = null;
    this.state.journal = null;
    this.state.runJournal = null;
    this.state.history = [];
    this.state.presetPlans = [];
    this.state.check = null;
    if (c) await c.close();
  }

  /** Reads identity, topology, knobs, the lab database, the check report, the journal and the history into the state. */
  async readServer(): Promise<void> {
    const conn = this.conn!;
    const facts = await conn.read();
    this.state.server = facts;
    // What will work here (`spinlab check`); its failure is in the view, never a failed connect or refresh.
    this.state.check = await readCheck(() => conn.session(), conn.labDatabase);
    this.state.presetPlans = defaultPlanViews(this.facts()!);
    this.readJournalAndHistory();
  }

  /** The connected server as the run requests and preset plans need it. */
  facts() {
    const conn = this.conn;
    const server = this.state.server;
    if (!conn || !server) return null;
    return { identity: conn.identity, topology: server.topology, knobs: server.knobs, labDatabase: conn.labDatabase };
  }

  readJournalAndHistory(): void {
    if (!this.readJournal()) return;
    this.state.history = listHistory(this.ports.settings().resultsFolder, { serverName: this.conn!.identity.serverName }, (l) =>
      this.ports.log.warn(l),
    );
  }

  /** This server's journal: a leftover (state.journal) or the running experiment's own (state.runJournal). False when not connected. */
  private readJournal(): boolean {
    const conn = this.conn;
    if (!conn) return false;
    try {
      const j = conn.journal(this.stateDir);
      const active = this.state.active;
      const id = this.experiment.isRunning ? active?.experimentId : null;
      const run = id ? { outDir: path.join(this.ports.settings().resultsFolder, id) } : null;
      const mine = !!j && ownedByRun(j, run);
      this.state.journal = j && !mine ? summariseJournal(j) : null;
      this.state.runJournal = j && mine ? summariseJournal(j) : null;
    } catch (err) {
      this.state.journal = null;
      this.state.runJournal = null;
      this.fail({ message: (err as Error).message, fix: 'Restore the settings it lists by hand, then delete the file.' });
    }
    return true;
  }

  /**
   * While a run goes: the server's knobs, schedulers and journal as the run left them (its affinity, its CPUs online,
   * its journal in use), read in the background; one read at a time, and a failure only logged (the run goes on).
   */
  readServerLive(): void {
    if (this.liveRead) {
      this.liveReadAgain = true;
      return;
    }
    const conn = this.conn;
    if (!conn) return;
    this.liveRead = (async () => {
      try {
        do {
          this.liveReadAgain = false;
          const f = await conn.read();
          if (this.disposed || this.conn !== conn || !this.state.server) return;
          Object.assign(this.state.server, { topology: f.topology, knobs: f.knobs, labExists: f.labExists, deployed: f.deployed });
          this.readJournal(); // not the history: the running experiment is listed there once it has ended
          this.postState();
        } while (this.liveReadAgain);
      } catch (err) {
        this.ports.log.warn(`could not read the server's settings during the run: ${(err as Error).message}`);
      } finally {
        this.liveRead = null;
      }
    })();
  }

  async refreshKnobs(): Promise<void> {
    const conn = this.conn;
    if (!conn || !this.state.server) return;
    const { knobs, labExists, deployed } = await conn.readKnobs();
    this.state.server.knobs = knobs;
    this.state.server.labExists = labExists;
    this.state.server.deployed = deployed;
  }
}
