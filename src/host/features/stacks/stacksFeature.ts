// The panel's "Why is it spinning?": a short capture of one spinlock's backoff call stacks by the engine
// (an Extended Events session SpinlockLab_..., dropped afterwards), run beside an experiment or a watch: progress
// forwarded, Cancel honoured, a missing permission answered with its GRANT. The last capture is kept here and sent
// again to a reloaded webview. One capture at a time per panel; the panel's close cancels it and waits for the drop.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DbError } from '../../../db/dbError';
import { SpinlabError } from '../../../engine/errors';
import { eventSessionGrant, toCallStackResolverXml } from '../../../engine/stacks';
import { addStacksToExperiment } from '../../../engine/stacks/save';
import type { StackCapture } from '../../../shared/stacks';
import { message, ToWebview } from '../../../shared/protocol';
import type { StacksCaptureRequest } from '../../../shared/stacksMessages';
import type { ServerConnection } from '../../serverView';
import { engineCaptureStacks, type CapturedStacks, type CaptureStacks } from './stacksCapture';
import { UiFailure } from '../../uiErrors';
import { experimentDir } from '../../history';
import type { PanelContext } from '../../panelContext';
import type { FeatureRegistry, PanelFeature } from '../feature';
import { featureVersion } from '../../../shared/serverLevel';

/** How many distinct stacks the panel asks for (the rest are summed as "other"). */
export const PANEL_TOP_STACKS = 20;

interface StacksRun {
  spinlock: string;
  progress: { elapsedMs: number; durationMs: number };
  ac: AbortController;
  done: Promise<void>;
}

function errorNumbers(err: unknown): number[] {
  if (err instanceof DbError) return err.all.map((e) => e.number ?? 0).concat(err.number ?? 0);
  const original = err instanceof SpinlabError ? err.original : undefined;
  return original ? errorNumbers(original) : [];
}

/** A permission failure: the server's numbers for it (297/300 server state, 15247 and 262 denied, 5011 ALTER), or words. */
function isPermissionError(err: unknown): boolean {
  const nums = errorNumbers(err);
  if ([297, 300, 262, 5011, 15247].some((n) => nums.includes(n))) return true;
  const text = err instanceof Error ? err.message : String(err);
  return /permission|denied/i.test(text);
}

/** The failure as the panel shows it: the message without a stack, and the GRANT when a permission is missing. */
export function stacksFailure(err: unknown, login: string, majorVersion: number | null): { message: string; grant?: string } {
  const raw = err instanceof Error ? err.message : String(err);
  const message = raw.split('\n  How to fix: ')[0];
  if (isPermissionError(err)) {
    const hint = err instanceof SpinlabError ? err.hint : undefined;
    return { message, grant: hint && /GRANT/i.test(hint) ? hint : eventSessionGrant(login, majorVersion) };
  }
  const hint = err instanceof SpinlabError && err.hint ? ` (${err.hint})` : '';
  return { message: `${message}${hint}` };
}

export class StacksFeature implements PanelFeature {
  private s!: PanelContext;
  /** The capture under way, or null. */
  private run: StacksRun | null = null;
  /** The last capture, sent again to a reloaded webview and exported on request. */
  private last: CapturedStacks | null = null;

  /** @param capture a test's stand-in for the engine's capture. */
  constructor(private readonly capture: CaptureStacks = engineCaptureStacks) {}

  register(r: FeatureRegistry): void {
    const s = (this.s = r.panel);
    // A capture runs beside an experiment or a watch: it returns at once, so Cancel is handled meanwhile.
    r.on('stacksCapture', (p) => {
      void this.start(p);
    });
    r.on('stacksCancel', () => this.cancel());
    r.on('stacksExport', (p) => this.export(p.to));
    s.add(s.webviewReady.on(() => this.resend()));
    s.add(() => this.dispose());
  }

  get isCapturing(): boolean {
    return this.run !== null;
  }

  /**
   * Captures the stacks of one spinlock; resolves when the capture ended (done, failed or cancelled). Every outcome is
   * a message to the webview (stacksResult or stacksError), never lastError: the experiment or watch beside it goes on.
   */
  async start(p: StacksCaptureRequest): Promise<void> {
    const s = this.s;
    const post = (m: Parameters<PanelContext['ports']['post']>[0]) => {
      if (!s.disposed) s.ports.post(m);
    };
    const fail = (spinlock: string | null, e: { message: string; grant?: string; cancelled?: boolean }) =>
      post(message(ToWebview.stacksError, { spinlock, ...e }));
    if (this.run) {
      fail(p.spinlock, { message: `A capture of ${this.run.spinlock} is already running: one at a time.` });
      return;
    }
    let conn: ServerConnection;
    try {
      conn = s.requireConnection();
    } catch {
      fail(p.spinlock, { message: 'Not connected to a server: connect first, then ask again.' });
      return;
    }
    const ac = new AbortController();
    let resolveDone!: () => void;
    const run: StacksRun = {
      spinlock: p.spinlock,
      progress: { elapsedMs: 0, durationMs: p.durationMs },
      ac,
      done: new Promise<void>((r) => {
        resolveDone = r;
      }),
    };
    this.run = run;
    const signal = AbortSignal.any([ac.signal, s.signal]);
    s.ports.log.info(`capturing the backoff call stacks of ${p.spinlock} for ${p.durationMs / 1000} s`);
    post(message(ToWebview.stacksProgress, { spinlock: p.spinlock, elapsedMs: 0, durationMs: p.durationMs }));
    try {
      const result = await this.capture(conn, {
        spinlock: p.spinlock,
        durationMs: p.durationMs,
        top: PANEL_TOP_STACKS,
        signal,
        stateDir: s.stateDir,
        onStatus: (m) => s.ports.log.info(`stacks: ${m}`),
        onProgress: (pr) => {
          run.progress = { elapsedMs: pr.elapsedMs, durationMs: pr.durationMs };
          post(message(ToWebview.stacksProgress, { spinlock: p.spinlock, ...run.progress }));
        },
      });
      // Cancelled, the engine still reads what the session counted so far and says so in the notes: shown like any other.
      this.last = result;
      const c = result.capture;
      post(message(ToWebview.stacksResult, { capture: c }));
      s.ports.log.info(
        `captured ${c.events} backoff events of ${c.spinlock} in ${c.buckets.length} stacks (session ${c.session}, dropped)`,
      );
      void this.keepWithExperiment(p.experimentId === undefined ? (s.state.active?.experimentId ?? null) : p.experimentId, c);
    } catch (err) {
      if (signal.aborted) {
        fail(p.spinlock, { message: `The capture of ${p.spinlock} was cancelled; its event session was dropped.`, cancelled: true });
      } else {
        const f = stacksFailure(err, conn.identity.login, featureVersion(conn.identity));
        s.ports.log.error(`capturing the stacks of ${p.spinlock} failed: ${f.message}`);
        fail(p.spinlock, f);
      }
    } finally {
      this.run = null;
      resolveDone();
    }
  }

  /**
   * Saves the capture in the experiment's experiment.json (its `stacks`, schema version 5). The live experiment's file is
   * rewritten by its run when it ends, so the capture is added once it has ended.
   */
  private async keepWithExperiment(id: string | null, c: StackCapture): Promise<void> {
    const s = this.s;
    const dir = id ? experimentDir(s.ports.settings().resultsFolder, id) : null;
    if (!id || !dir) return;
    const running = s.state.active?.experimentId === id ? s.experiment.finished() : null;
    if (running) {
      s.ports.log.info(`the ${c.spinlock} stacks go into ${id} once it ends`);
      await running;
    }
    try {
      addStacksToExperiment(dir, c);
      s.toast(`Saved the ${c.spinlock} stacks with the experiment`);
      s.ports.log.info(`saved the ${c.spinlock} stacks (session ${c.session}) in ${dir}`);
    } catch (err) {
      s.ports.log.warn(`could not save the ${c.spinlock} stacks with ${id}: ${(err as Error).message}`);
    }
  }

  /** Cancel pressed: aborts the capture (the engine drops its session). False when none runs. */
  cancel(): boolean {
    const r = this.run;
    if (!r) return false;
    this.s.ports.log.info(`cancelling the capture of ${r.spinlock}`);
    r.ac.abort(new Error('cancelled'));
    return true;
  }

  /** A reloaded webview (ready): the last capture again, and the running one's progress. */
  private resend(): void {
    const s = this.s;
    if (this.last) s.ports.post(message(ToWebview.stacksResult, { capture: this.last.capture }));
    const r = this.run;
    if (r) s.ports.post(message(ToWebview.stacksProgress, { spinlock: r.spinlock, ...r.progress }));
  }

  /** The last capture as SQLCallStackResolver's histogram XML (the engine's export), copied or saved where the user picks. */
  async export(to: 'clipboard' | 'file'): Promise<void> {
    const s = this.s;
    const last = this.last;
    if (!last) throw new UiFailure({ message: 'There is no capture to export.', fix: 'Press "Why is it spinning?" on a spinlock first.' });
    const c = last.capture;
    const xml = toCallStackResolverXml(last.slots ?? c.buckets, last.buckets);
    if (to === 'clipboard') {
      await s.ports.copyToClipboard(xml);
      s.toast('Copied the stacks for SQLCallStackResolver');
      return;
    }
    const file = await s.ports.pickSaveFile(`${c.session}.xml`, { 'Histogram XML (SQLCallStackResolver)': ['xml'] });
    if (!file) return;
    fs.writeFileSync(file, xml);
    s.toast(`Saved ${path.basename(file)}`);
    s.ports.log.info(`saved the stacks of ${c.spinlock} for SQLCallStackResolver as ${file}`);
  }

  /** The panel closed: stop a capture and wait for the engine to drop its session. */
  private async dispose(): Promise<void> {
    const r = this.run;
    if (!r) return;
    r.ac.abort(new Error('the panel closed'));
    await r.done;
  }
}
