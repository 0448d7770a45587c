// The panel's questions to the host (requests.ts), as App asks them: a preset's plan for the settings typed (the
// newest asking's answer kept per preset, dropped when the server's default plans change), a saved experiment, two
// windows of the watch compared (the newest asking's answer shown), this server's experiments over time (asked when
// the History view's trend opens, and again when the saved experiments change while it is open).
import type { Experiment } from '../shared/experiment';
import { PanelRequests } from '../shared/panelRequests';
import type { PanelState, PresetAnalysisInfo, PresetPlanView } from '../shared/protocol';
import type { RequestEnvelope } from '../shared/requests';
import type { WatchCompareRequest } from '../shared/watchWindows';
import { stableJson } from './model/format';
import { planOf, presetPayload, type PresetFormState } from './model/presetForm';
import type { WatchCompareModel } from './model/watchCompare';
import { HistoryTrendModel, historyKey } from './model/historyTrend';
import { RequestClient } from './requests';

/** What the answers change in the panel. */
export interface QuestionsApp {
  onExperiment(e: Experiment, preset: PresetAnalysisInfo | null): void;
  onToast(text: string): void;
  requestRender(): void;
}

export class PanelQuestions {
  readonly client: RequestClient;
  /** Plans the host made for the settings typed here, by preset; the state's plans are the defaults'. */
  private readonly previewed = new Map<string, PresetPlanView>();
  /** By preset, the settings last asked about and why that asking failed, so the plan says so instead of "Updating". */
  private readonly asked = new Map<string, { key: string; error: string | null }>();
  private lastDefaultPlans: string | null = null;
  /** The History view's trend: open or not, and the host's last answer. */
  readonly trend = new HistoryTrendModel();

  constructor(
    post: (envelope: RequestEnvelope) => void,
    private readonly app: QuestionsApp,
  ) {
    this.client = new RequestClient(post);
  }

  /** New default plans (another server, or the same one read again): plans previewed for the old facts no longer hold. */
  onState(s: PanelState): void {
    const saved = historyKey(s.history.map((h) => h.id));
    if (this.trend.open && this.trend.askedFor !== saved) this.askTrend(saved);
    const plans = stableJson(s.presetPlans);
    if (plans === this.lastDefaultPlans) return;
    this.lastDefaultPlans = plans;
    this.previewed.clear();
    this.asked.clear();
  }

  /** Whether these settings were asked about since the server's plans last changed (answered, waiting or failed). */
  previewAsked(asked: { presetId: string }): boolean {
    return this.asked.get(asked.presetId)?.key === stableJson(asked);
  }

  /** The plan shown for the form is for other settings and nobody asked about these (new default plans, say). */
  planStale(s: PanelState, form: PresetFormState): boolean {
    return !planOf(this.presetPlans(s), form).current && !this.previewAsked(presetPayload(form));
  }

  /** Why the plan for these settings could not be made, or null. */
  previewError(asked: { presetId: string }): string | null {
    const a = this.asked.get(asked.presetId);
    return a && a.key === stableJson(asked) ? a.error : null;
  }

  previewPreset(asked: { presetId: string; settings: PresetPlanView['settings']; load: PresetPlanView['load'] }): void {
    const key = stableJson(asked);
    this.asked.set(asked.presetId, { key, error: null });
    void this.client.latest('presetPreview', PanelRequests.presetPreview, asked).then((a) => {
      if (a.kind === 'result') this.previewed.set(a.result.presetId, a.result);
      else if (a.kind === 'error') {
        const mine = this.asked.get(asked.presetId);
        if (mine?.key === key) mine.error = a.error.message;
      }
      this.app.requestRender();
    });
  }

  /** Each preset's last previewed plan, else its default from the state. */
  presetPlans(s: PanelState | null): PresetPlanView[] {
    return (s?.presetPlans ?? []).map((p) => this.previewed.get(p.presetId) ?? p);
  }

  /** A saved experiment, shown beside the live runs when it comes; `then` runs first. */
  openExperiment(id: string, then?: () => void): void {
    this.client.send(PanelRequests.experimentOpen, { id }).then(
      (a) => {
        then?.();
        this.app.onExperiment(a.experiment, a.preset);
      },
      (e: Error) => this.app.onToast(`Could not open the experiment "${id}": ${e.message}`),
    );
  }

  /** This server's experiments over time; only the newest asking's answer is shown. */
  askTrend(key: string): void {
    this.trend.asked(key);
    this.app.requestRender();
    void this.client.latest('historyTrend', PanelRequests.historyTrend, {}).then((a) => {
      if (a.kind === 'superseded') return;
      this.trend.received(a.kind === 'result' ? { result: a.result, error: null } : { result: null, error: a.error.message });
      this.app.requestRender();
    });
  }

  /** Opens or closes the trend; opening asks the host for it. */
  toggleTrend(s: PanelState | null): void {
    this.trend.open = !this.trend.open;
    if (this.trend.open) this.askTrend(historyKey((s?.history ?? []).map((h) => h.id)));
    else this.app.requestRender();
  }

  /** Window A against window B of the watch; only the newest asking's answer is shown. */
  compareWatch(cmp: WatchCompareModel, req: WatchCompareRequest): void {
    cmp.pending = true;
    this.app.requestRender();
    void this.client.latest('watchCompare', PanelRequests.watchCompare, req).then((a) => {
      if (a.kind === 'superseded') return;
      const answer = a.kind === 'result' ? { result: a.result, error: null } : { result: null, error: a.error.message };
      if (cmp.received({ watchId: req.watchId, ...answer })) this.app.requestRender();
    });
  }
}
