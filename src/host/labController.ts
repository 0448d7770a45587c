// The panel's application logic, in plain Node: it checks every message from the webview against the protocol's
// schemas and hands it to the feature that registered for it. Each feature (src/host/features/<name>) keeps its own
// state, handlers and cleanup; what they share (PanelState, the connection, the running experiment) is the
// PanelContext. The webview's questions are answered to the asker (requests.ts), and the Activity Bar's items shown
// (reveal.ts). The editor (VS Code, Azure Data Studio or a test) is reached only through HostPorts.
import {
  MessageRouter,
  ToHost,
  parseToHost,
  type ConnectionProfile,
  type PanelState,
  type PresetLoadInput,
  type ToHostMap,
} from '../shared/protocol';
import type { ParamValue } from '../shared/experiment';
import type { CustomFill } from '../shared/customForm';
import { DisposableStore } from '../shared/disposables';
import type { ExperimentResult } from '../engine/experiment';
import type { HostPorts } from './ports';
import type { ProfileSecret } from './profiles';
import { CONFIRM_ACTION } from './runRequest';
import { PanelContext, type LabControllerOptions } from './panelContext';
import type { FeatureRegistry, PanelFeature } from './features/feature';
import { BasicsFeature } from './features/basics/basicsFeature';
import { ConnectFeature } from './features/connect/connectFeature';
import { ServerFeature, restore } from './features/server/serverFeature';
import { RunFeature, stop } from './features/run/runFeature';
import { CustomFeature, fillCustom } from './features/custom/customFeature';
import { PresetFeature, runPresetNow } from './features/preset/presetFeature';
import { HistoryFeature, rerunNotebook } from './features/history/historyFeature';
import { WatchFeature } from './features/watch/watchFeature';
import { StacksFeature } from './features/stacks/stacksFeature';
import { TuneFeature } from './features/tune/tuneFeature';
import { NowFeature } from './features/now/nowFeature';
import { isRequestEnvelope } from '../shared/requests';
import type { RevealTarget } from '../shared/reveal';
import { HostRequests } from './requests';
import { checkRevealTarget, Reveals } from './reveal';

export { CONFIRM_ACTION };
export type { LabControllerOptions };

export class LabController {
  private readonly store: DisposableStore;
  private readonly s: PanelContext;
  private readonly router = new MessageRouter<ToHostMap>();
  private readonly connect = new ConnectFeature();
  private readonly requests: HostRequests;
  private readonly reveals: Reveals;

  constructor(ports: HostPorts, opts: LabControllerOptions) {
    this.store = new DisposableStore((err) => ports.log.warn(`closing the panel: ${(err as Error)?.message ?? String(err)}`));
    this.s = new PanelContext(ports, opts, this.store);
    this.requests = new HostRequests(
      ports,
      () => this.s.disposed,
      (error) => this.rejected(error),
    );
    this.reveals = new Reveals(ports, () => this.s.disposed);
    this.store.add(this.s.webviewReady.on(() => this.reveals.ready()));
    // The panel's features, in order; each is disposed in reverse (the connection, registered by the context, last).
    const features: PanelFeature[] = [
      new BasicsFeature(),
      this.connect,
      new ServerFeature(),
      new RunFeature(),
      new CustomFeature(),
      new PresetFeature(),
      new HistoryFeature(),
      new WatchFeature(),
      new StacksFeature(opts.captureStacks),
      new TuneFeature(opts.runTune),
      new NowFeature(),
    ];
    const registry: FeatureRegistry = {
      panel: this.s,
      on: (type, handler) => {
        this.router.on(ToHost[type], handler);
      },
      ask: (method, handler) => {
        this.requests.on(method, handler);
      },
    };
    for (const f of features) f.register(registry);
    // Last registered, so first on close: deploys, connects, watches and captures in flight are aborted at once.
    this.s.registerLifetime();
  }

  get state(): PanelState {
    return this.s.state;
  }

  get disposed(): boolean {
    return this.s.disposed;
  }

  get isRunning(): boolean {
    return this.s.experiment.isRunning;
  }

  /** Every message from the webview arrives here: checked against its schema, then dispatched; never throws. */
  async receive(raw: unknown): Promise<void> {
    const s = this.s;
    if (s.disposed) {
      s.ports.log.warn('ignored a message that arrived after the panel closed');
      return;
    }
    if (isRequestEnvelope(raw)) return this.requests.answer(raw);
    const parsed = parseToHost(raw);
    if (!parsed.ok) {
      s.ports.log.warn(`rejected a message from the webview: ${parsed.error}`);
      this.rejected(parsed.error);
      return;
    }
    await s.guard(() => this.router.dispatch(parsed.message) as Promise<void> | void);
  }

  private rejected(error: string): void {
    this.s.state.lastError = {
      message: `The panel sent a message the extension does not accept (${error}).`,
      fix: 'Reload the panel; if it happens again, report it.',
    };
    this.s.postState();
  }

  /**
   * Shows a preset, the Watch section or a saved experiment in the panel (the Activity Bar's items). Throws, naming
   * it, when there is no such preset or experiment: the caller says so where the user clicked.
   */
  reveal(target: RevealTarget): void {
    this.s.checkAlive();
    checkRevealTarget(target, this.s.state, this.s.ports.settings().resultsFolder);
    this.reveals.show(target);
  }

  /** Reads what needs async work (which profiles have a saved password) and sends the first snapshot. */
  async start(): Promise<void> {
    await this.s.guard(() => this.connect.start());
    this.s.postState();
  }

  /** Fills the form (e.g. from an Object Explorer node) without connecting; a server already saved keeps its id. */
  prefill(profile: ConnectionProfile): ConnectionProfile {
    return this.connect.prefill(profile);
  }

  /**
   * For the editor's commands (Azure Data Studio's Object Explorer): connects with a secret the editor already has.
   * It is used for this connection only, never saved. Failures show in the panel.
   */
  connectWithSecret(profile: ConnectionProfile, secret: ProfileSecret): Promise<void> {
    return this.s.guard(() => this.connect.connectWithSecret(profile, secret));
  }

  /**
   * Connects with one of Microsoft's SQL extension's connections: a saved one by its id (the Activity Bar), or the
   * connection profile of its Object Explorer node. Failures show in the panel.
   */
  connectSqlExtension(which: { id: string } | { node: unknown }): Promise<void> {
    const c = this.connect.sqlExtension;
    return this.s.guard(() => ('id' in which ? c.connectById(which.id) : c.connectNode(which.node)));
  }

  /** Reads the SQL extension's saved connections again (they changed in its settings). */
  refreshSqlExtension(): Promise<void> {
    return this.s.guard(async () => {
      await this.connect.sqlExtension.load();
      this.s.postState();
    });
  }

  /** A preset run (features/preset); null when the user declined the confirmation. */
  runPresetNow(
    presetId: string,
    settings: Record<string, ParamValue>,
    load?: PresetLoadInput,
    title?: string,
    repeat?: number,
  ): Promise<ExperimentResult | null> {
    return runPresetNow(this.s, presetId, settings, load, title, repeat);
  }

  /** "Load Test This Query": fills the panel's Custom workload form with this T-SQL. */
  fillCustom(fill: CustomFill): void {
    fillCustom(this.s, fill);
  }

  /** The editor showed (true) or hid (false) the panel: the Now view reads the server only while it is shown. */
  setVisible(visible: boolean): void {
    if (!this.s.disposed) void this.s.visibility.fire(visible);
  }

  /** Stops the running experiment (its knobs are restored by the engine). */
  stop(): boolean {
    return stop(this.s);
  }

  /** Puts back what this server's restore journal recorded, as `spinlab restore` does. */
  restore(): Promise<void> {
    return restore(this.s);
  }

  /** For the commands: runs restore with failures shown in the panel. */
  restoreCommand(): Promise<void> {
    return this.s.guard(() => restore(this.s));
  }

  /** "Run this experiment again" on a notebook (features/history), with failures shown in the panel. */
  rerunNotebook(file: string): Promise<void> {
    return this.s.guard(() => rerunNotebook(this.s, file));
  }

  /**
   * Closes the panel's work, last started first: in-flight deploys and connects aborted, the capture and the watch
   * ended, the running experiment aborted (its knobs put back) and awaited, the connection closed last. Idempotent.
   */
  dispose(): Promise<void> {
    return this.store.dispose();
  }
}
