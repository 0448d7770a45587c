// The panel's Watch mode: a read-only watch of the connected server (engine/watch/run.ts, the same as `spinlab watch`)
// run by the host, which keeps the truth: state.watch for the panel, the ticks posted as they arrive, and the memory
// bounded by the engine's WatchHistory (the window on screen at full resolution). Every tick is on disk in the watch's
// folder (samples.jsonl) under the results folder's `watches`; marks go through marks.jsonl as `spinlab mark` does.
// The watch ends when the panel's connection changes (said in the panel) and when the panel closes (awaited).
import * as path from 'node:path';
import { message, ToWebview, WATCH_WARNINGS_KEPT, type WatchView } from '../../../shared/protocol';
import type { WatchTick } from '../../../shared/watch';
import { diagnoseWatch } from '../../../shared/watchDiagnosis';
import { summariseMonitorCost } from '../../../shared/monitorCost';
import { describeCoverage, describeGap } from '../../../shared/watchGaps';
import { runWatch } from '../../../engine/watch/run';
import { WatchHistory } from '../../../engine/watch/history';
import { dropMark, MarkError } from '../../../engine/watch/marks';
import { writeWatchNotebookFile } from '../../../engine/watch/notebook';
import { UiFailure } from '../../uiErrors';
import type { PanelContext } from '../../panelContext';
import type { FeatureRegistry, PanelFeature, Payload } from '../feature';
import { compareWatch } from './watchCompare';
import { plural } from '../../../shared/plural';

/** Ticks a reloaded webview gets back at full resolution (the charts' window); older ones are on disk only. */
export const WATCH_RECENT_TICKS = 120;

interface WatchRun {
  ac: AbortController;
  done: Promise<void>;
  dir: string;
  history: WatchHistory;
  /** Why the panel ended the watch (a disconnect), said in the panel; null when the user pressed Stop. */
  stopReason: string | null;
  /** The monitor connection failed and no tick has come since (a reconnect is under way). */
  lost: boolean;
}

function view(s: PanelContext): WatchView {
  const v = s.state.watch;
  if (!v) throw new UiFailure({ message: 'No watch has been started in this panel.', fix: 'Start a watch first.' });
  return v;
}

function isWatching(s: PanelContext): boolean {
  const v = s.state.watch;
  return !!v && (v.status === 'starting' || v.status === 'running');
}

export class WatchFeature implements PanelFeature {
  private s!: PanelContext;
  /** The running (or last) watch of this panel. */
  private run: WatchRun | null = null;

  register(r: FeatureRegistry): void {
    const s = (this.s = r.panel);
    // A watch runs until stopped: its handler returns at once, so other messages (mark, stop) are handled meanwhile.
    r.on('watchStart', (p) => {
      void s.guard(() => this.start(p));
    });
    r.on('watchStop', () => this.stop());
    r.on('watchBenign', (p) => this.setBenign(p.show));
    r.on('watchMark', (p) => this.mark(p.name));
    r.on('watchSaveNotebook', () => this.saveNotebook());
    r.ask('watchCompare', (p) => compareWatch(s, this.run?.dir ?? null, p));
    s.add(s.connectionChanging.on((reason) => this.end(reason)));
    s.add(() => this.dispose());
  }

  /** Starts a watch of the connected server; resolves when it ended (stopped, panel closed, or failed). */
  async start(p: Payload<'watchStart'>): Promise<void> {
    const s = this.s;
    const conn = s.requireConnection();
    if (isWatching(s)) throw new UiFailure({ message: 'A watch is already running.', fix: 'Stop it before starting another.' });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const dir = path.join(s.ports.settings().resultsFolder, 'watches', `${stamp}-watch`);
    const history = new WatchHistory(Math.max(60, Math.round(600_000 / p.intervalMs)));
    const ac = new AbortController();
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => {
      resolveDone = r;
    });
    const run: WatchRun = { ac, done, dir, history, stopReason: null, lost: false };
    this.run = run;
    const v: WatchView = {
      id: path.basename(dir),
      title: `Watch of ${conn.identity.serverName}`,
      serverName: conn.identity.serverName,
      simulated: conn.identity.simulated,
      status: 'starting',
      intervalMs: p.intervalMs,
      showBenign: p.showBenign,
      ticks: 0,
      marks: [],
      diagnosis: [],
      requests: [],
      recent: [],
      message: `connecting to ${conn.description}`,
      warnings: [],
      gaps: [],
      coverage: null,
    };
    s.state.watch = v;
    s.state.lastError = null;
    s.postState();
    const topology = s.state.server?.topology ?? null;
    const majorVersion = conn.identity.majorVersion;
    let lastDiagnosis = 0;
    try {
      const { record } = await runWatch(
        {
          target: conn.target,
          outDir: dir,
          stateDir: s.stateDir,
          title: v.title,
          windowTicks: history.windowTicks,
          settings: { intervalMs: p.intervalMs, durationMs: null, topRequests: 10, textChars: 100 },
        },
        AbortSignal.any([ac.signal, s.signal]),
        (e) => {
          if (s.disposed) return;
          if (e.kind === 'status') {
            v.message = e.message.replace(' until Ctrl+C', ' until Stop'); // the engine speaks to the CLI
            if (v.status === 'starting' && e.message.startsWith('watching')) v.status = 'running';
            s.postState();
          } else if (e.kind === 'event') {
            // A dropped monitor connection (or a restarted server) is said as it happens; the engine reconnects and
            // every tick already taken stays in samples.jsonl.
            if (/monitor (sample failed|connection was lost)/.test(e.event.message)) run.lost = true;
            if (e.event.level !== 'info')
              v.message = run.lost
                ? `${e.event.message}; the ${plural(history.ticks, 'tick')} so far ${history.ticks === 1 ? 'is' : 'are'} kept`
                : e.event.message;
            // The engine says a repeated warning once and counts it: the panel lists the same lines as the CLI.
            if (e.event.level === 'warning') v.warnings = [...(v.warnings ?? []), e.event.message].slice(-WATCH_WARNINGS_KEPT);
            s.postState();
          } else if (e.kind === 'gap') {
            run.lost = false;
            v.gaps = [...(v.gaps ?? []), e.gap];
            v.message = `${describeGap(e.gap)}: no tick and no delta across the gap; ${e.gap.recovered ? 'watching again' : 'the watch ended in it'}`;
            s.postState();
          } else if (e.kind === 'mark') {
            v.marks.push(e.mark);
            s.postState();
          } else {
            this.onTick(
              v,
              history,
              e.tick,
              Date.now() - lastDiagnosis > 5000
                ? () => {
                    lastDiagnosis = Date.now();
                    v.diagnosis = diagnoseWatch(history.totals, history.window(), { topology, majorVersion }).map((d) => d.text);
                    v.cost = summariseMonitorCost(history.window());
                  }
                : null,
            );
          }
        },
      );
      v.status = record.status === 'running' ? 'completed' : record.status;
      v.diagnosis = record.diagnosis;
      v.cost = record.cost ?? null;
      v.marks = record.marks;
      v.gaps = record.gaps ?? [];
      v.coverage = record.coverage ? describeCoverage(record.coverage, v.gaps) : null;
      v.message = run.stopReason
        ? `Stopped: ${run.stopReason}. The ${plural(record.ticks, 'tick')} taken ${record.ticks === 1 ? 'is' : 'are'} kept in ${path.join(dir, record.samplesFile)}.`
        : `${plural(record.ticks, 'tick')} saved in ${dir}`;
    } catch (err) {
      v.status = 'failed';
      throw err;
    } finally {
      resolveDone();
      if (!s.disposed) s.postState();
    }
  }

  private onTick(v: WatchView, history: WatchHistory, tick: WatchTick, diagnose: (() => void) | null): void {
    const s = this.s;
    history.add(tick);
    // The start on this machine's clock, from the first tick (t: ms from the start): the charts' time of day.
    v.startedAt ??= new Date(Date.now() - tick.t).toISOString();
    const started = v.status !== 'running' || v.ticks === 0;
    v.status = 'running';
    v.ticks = history.ticks;
    v.requests = tick.requests;
    if (tick.intervalSetMs) v.intervalMs = tick.intervalSetMs; // over its cost budget: the watch ticks less often
    v.recent = history.window().slice(-WATCH_RECENT_TICKS);
    diagnose?.();
    // The tick carries its own requests; the whole state goes only when the status or the diagnosis changed.
    s.ports.post(message(ToWebview.watchTick, { watchId: v.id, tick }));
    if (started || diagnose || tick.intervalSetMs) s.postState();
  }

  stop(): boolean {
    const r = this.run;
    if (!r || !isWatching(this.s)) return false;
    this.s.ports.log.info('stopping the watch');
    r.ac.abort();
    return true;
  }

  setBenign(show: boolean): void {
    view(this.s).showBenign = show;
    this.s.postState();
  }

  /** A named mark, saved at the watch's next tick (as `spinlab mark` does). */
  mark(name: string): void {
    const r = this.run;
    if (!r || !isWatching(this.s))
      throw new UiFailure({ message: 'No watch is running to mark.', fix: 'Start a watch, then drop the mark.' });
    try {
      const m = dropMark(r.dir, name);
      this.s.toast(`Marked "${m.name}"`);
    } catch (e) {
      if (e instanceof MarkError) throw new UiFailure({ message: e.message });
      throw e;
    }
  }

  /** Saves the watch (running: as far as it got) as a Jupyter notebook, with the engine's watch notebook writer. */
  async saveNotebook(): Promise<string | null> {
    const s = this.s;
    const v = view(s);
    const r = this.run;
    if (!r) throw new UiFailure({ message: 'This watch has no folder to save from.', fix: 'Start a watch first.' });
    const file = await s.ports.pickSaveFile(`${path.basename(r.dir)}.ipynb`, { 'Jupyter notebook': ['ipynb'] });
    if (!file) return null;
    const saved = await writeWatchNotebookFile(r.dir, file);
    s.toast(`Saved ${path.basename(saved)}`);
    await s.ports.openFile(saved);
    s.ports.log.info(`saved the watch ${v.id} as ${saved}`);
    return saved;
  }

  /**
   * Ends a running watch for a reason of the panel's (it disconnects, or connects elsewhere) and waits until its
   * record is saved; every tick taken is in samples.jsonl, and the panel says why it stopped.
   */
  private async end(reason: string): Promise<void> {
    const r = this.run;
    if (!r || !isWatching(this.s)) return;
    this.s.ports.log.info(`stopping the watch: ${reason}`);
    r.stopReason = reason;
    r.ac.abort();
    await r.done;
  }

  /** The panel closed: stops the watch and waits for it. */
  private async dispose(): Promise<void> {
    const r = this.run;
    if (!r) return;
    r.ac.abort();
    await r.done;
  }
}
