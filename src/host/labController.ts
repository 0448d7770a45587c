// The panel's application logic, in plain Node: it owns the LabSession (PanelState, the connection, the running
// experiment), checks every message from the webview against the protocol's schemas, and hands each to its handler:
// connectPath (profiles, connect), serverActions (deploy, cleanup, restore), runPath and presetPath (experiments),
// historyActions (saved experiments, notebooks), watchPath (the Watch mode); the webview's questions (requests.ts) are
// answered, and the Activity Bar's items shown (reveal.ts). The host (VS Code, Azure Data Studio or a test) is reached
// only through HostPorts.
import { MessageRouter, ToHost, parseToHost, type ConnectionProfile, type PanelState, type PayloadOf, type PresetLoadInput, type ToHostMap } from '../shared/protocol';
import type { ParamValue } from '../shared/experiment';
import type { ExperimentResult } from '../engine/experiment';
import type { HostPorts } from './ports';
import type { ProfileSecret } from './profiles';
import { CONFIRM_ACTION } from './runRequest';
import { LabSession, type LabControllerOptions } from './labSession';
import { connect, deleteProfile, disconnect, pickProfile, prefill, refreshSavedPasswords, refreshServer, saveProfile, select } from './connectPath';
import { cleanup, deploy, restore } from './serverActions';
import { runScenario, stop } from './runPath';
import { fillCustom, runCustom } from './customPath';
import type { CustomFill } from '../shared/customForm';
import { previewPreset, runPresetNow } from './presetPath';
import { disposeWatch, markWatch, saveWatchNotebook, setBenign, startWatch, stopWatch } from './watchPath';
import { compareWatch } from './watchComparePath';
import { exportExperiment, openExperiment, rerunNotebook, revealExperiment, saveNotebook } from './historyActions';
import { cancelStacks, captureStacksNow, disposeStacks, exportStacks, resendStacks } from './stacksPath';
import { engineCaptureStacks, type CaptureStacks } from './stacksCapture';
import { isRequestEnvelope } from '../shared/requests';
import type { RevealTarget } from '../shared/reveal';
import { HostRequests } from './requests';
import { checkRevealTarget, Reveals } from './reveal';

export { CONFIRM_ACTION };
export type { LabControllerOptions };

type Payload<K extends keyof ToHostMap> = PayloadOf<ToHostMap[K]>;

export class LabController {
  private readonly s: LabSession;
  private readonly router = new MessageRouter<ToHostMap>();
  private readonly requests: HostRequests;
  private readonly reveals: Reveals;
  private readonly captureStacks: CaptureStacks;

  constructor(ports: HostPorts, opts: LabControllerOptions) {
    this.s = new LabSession(ports, opts);
    this.requests = new HostRequests(ports, () => this.s.disposed, (error) => this.rejected(error));
    this.reveals = new Reveals(ports, () => this.s.disposed);
    this.captureStacks = opts.captureStacks ?? engineCaptureStacks;
    this.register();
  }

  get state(): PanelState {
    return this.s.state;
  }

  get disposed(): boolean {
    return this.s.disposed;
  }

  get isRunning(): boolean {
    return this.s.running !== null;
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
    this.s.state.lastError = { message: `The panel sent a message the extension does not accept (${error}).`, fix: 'Reload the panel; if it happens again, report it.' };
    this.s.postState();
  }

  private register(): void {
    const s = this.s;
    const on = <K extends keyof ToHostMap & string>(k: K, h: (p: Payload<K>) => unknown) => this.router.on<K>(ToHost[k], h);
    on('ready', () => { s.postState(true); resendStacks(s); this.reveals.ready(); });
    on('pickProfile', (p) => pickProfile(s, p.id));
    on('connect', (p) => connect(s, p.profile, p.password, p.savePassword));
    on('disconnect', () => disconnect(s));
    on('saveProfile', (p) => saveProfile(s, p.profile));
    on('deleteProfile', (p) => deleteProfile(s, p.id));
    on('refreshServer', () => refreshServer(s));
    on('select', (p) => select(s, p));
    on('deploy', (p) => deploy(s, p.scenarioId, p.parameters));
    on('cleanup', (p) => cleanup(s, p.scenarioId));
    on('run', (p) => runScenario(s, p));
    on('runCustom', (p) => runCustom(s, p.form, p.title));
    on('stop', () => stop(s));
    on('restore', () => restore(s));
    on('revealExperiment', (p) => revealExperiment(s, p.id));
    on('copyText', (p) => this.copyText(p.text));
    on('saveNotebook', (p) => saveNotebook(s, p.id));
    on('exportExperiment', (p) => exportExperiment(s, p.id, p.kind));
    on('runPreset', (p) => runPresetNow(s, p.presetId, p.settings, p.load, p.title));
    // A watch runs until stopped: its handler returns at once, so other messages (mark, stop) are handled meanwhile.
    on('watchStart', (p) => { void s.guard(() => startWatch(s, p)); });
    on('watchStop', () => stopWatch(s));
    on('watchBenign', (p) => setBenign(s, p.show));
    on('watchMark', (p) => markWatch(s, p.name));
    on('watchSaveNotebook', () => saveWatchNotebook(s));
    // A capture runs beside an experiment or a watch: like watchStart it returns at once, so Cancel is handled meanwhile.
    on('captureStacks', (p) => { void captureStacksNow(s, p, this.captureStacks); });
    on('cancelStacks', () => cancelStacks(s));
    on('exportStacks', (p) => exportStacks(s, p.to));
    // Questions: answered to the asker (requests.ts), never through the state.
    this.requests.on('presetPreview', (p) => previewPreset(s, p))
      .on('watchCompare', (p) => compareWatch(s, p))
      .on('experimentOpen', (p) => openExperiment(s, p.id));
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
    await this.s.guard(() => refreshSavedPasswords(this.s));
    this.s.postState();
  }

  /** Fills the form (e.g. from an Object Explorer node) without connecting; a server already saved keeps its id. */
  prefill(profile: ConnectionProfile): ConnectionProfile {
    return prefill(this.s, profile);
  }

  /**
   * For the host's commands (Azure Data Studio's Object Explorer): connects with a secret the host already has.
   * It is used for this connection only, never saved. Failures show in the panel.
   */
  connectWithSecret(profile: ConnectionProfile, secret: ProfileSecret): Promise<void> {
    return this.s.guard(() => connect(this.s, profile, secret.password, false, { accessToken: secret.accessToken, fromHost: true }));
  }

  /** A preset run (presetPath.ts); null when the user declined the confirmation. */
  runPresetNow(presetId: string, settings: Record<string, ParamValue>, load?: PresetLoadInput, title?: string): Promise<ExperimentResult | null> {
    return runPresetNow(this.s, presetId, settings, load, title);
  }

  /** "Load Test This Query": fills the panel's Custom workload form with this T-SQL. */
  fillCustom(fill: CustomFill): void {
    fillCustom(this.s, fill);
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

  /** "Run this experiment again" on a notebook (historyActions.ts), with failures shown in the panel. */
  rerunNotebook(file: string): Promise<void> {
    return this.s.guard(() => rerunNotebook(this.s, file));
  }

  private async copyText(text: string): Promise<void> {
    await this.s.ports.copyToClipboard(text);
    this.s.toast('Copied');
  }

  /** Aborts a running experiment (its knobs are put back), waits for it, and closes the connection. Idempotent. */
  dispose(): Promise<void> {
    const s = this.s;
    if (s.disposing) return s.disposing;
    s.disposing = (async () => {
      s.lifetime.abort();
      await disposeWatch(s);
      await disposeStacks(s);
      const r = s.running;
      if (r) {
        s.ports.log.info('the panel closed: stopping the experiment and restoring the server settings');
        r.ac.abort();
        await r.done;
      }
      await s.closeConnection().catch(() => undefined);
    })();
    return s.disposing;
  }
}
