// The panel's Now view: what is wrong on the connected server right now. From the moment the panel connects, and while
// it is visible, one read-only batch about once a second (engine/now/sampler.ts, sql/now/sample.sql) on a session of
// its own; the deltas, the hour of history and the words are computed here, never on the server, and each reading is
// posted as one compact `nowUpdate`. Hidden: it stops reading (the history is kept, the next read is a new baseline);
// disconnected: it forgets. A missing permission is said with its GRANT, and it does not retry that.
import { DbSession } from '../../../db/client';
import { NowSampler } from '../../../engine/now/sampler';
import { SpinlabError } from '../../../shared/spinlabError';
import { message, ToWebview } from '../../../shared/protocol';
import { NowHistory } from '../../../shared/nowHistory';
import { NOW_IDLE, type NowView } from '../../../shared/nowMessages';
import { buildNowView } from '../../../shared/nowWords';
import type { PanelContext } from '../../panelContext';
import type { FeatureRegistry, PanelFeature } from '../feature';
import { abortableSleep } from '../../../shared/abortableSleep';

export const NOW_INTERVAL_MS = 1000;
/** After a failed read (not a permission): the next try. */
export const NOW_RETRY_MS = 5000;

interface Loop {
  ac: AbortController;
  done: Promise<void>;
}

export class NowFeature implements PanelFeature {
  private s!: PanelContext;
  private visible = true;
  private loop: Loop | null = null;
  private history = new NowHistory();
  private view: NowView = NOW_IDLE;

  register(r: FeatureRegistry): void {
    const s = (this.s = r.panel);
    s.add(s.connected.on(() => this.begin()));
    s.add(
      s.connectionChanging.on(async () => {
        await this.halt();
        this.history.clear();
        this.set(NOW_IDLE);
      }),
    );
    s.add(s.visibility.on((v) => this.setVisible(v)));
    // A (re)loaded webview gets the last reading at once; shown again, reading resumes.
    s.add(
      s.webviewReady.on(() => {
        this.post();
        if (!this.visible) this.setVisible(true);
      }),
    );
    s.add(() => this.halt());
  }

  /** The view as last sent (tests, and the next `ready`). */
  get current(): NowView {
    return this.view;
  }

  private setVisible(visible: boolean): void {
    this.visible = visible;
    if (!visible) {
      void this.halt().then(() => {
        if (!this.visible && this.view.status !== 'idle' && this.view.status !== 'error')
          this.set({ ...this.view, status: 'paused', headline: `Paused while the panel is hidden. ${this.view.headline}` });
      });
    } else if (this.s.connection() && this.s.state.connection.status === 'connected') this.begin();
  }

  private begin(): void {
    if (this.loop || !this.visible || this.s.disposed) return;
    const ac = new AbortController();
    const loop: Loop = { ac, done: Promise.resolve() };
    loop.done = this.run(ac.signal).finally(() => {
      if (this.loop === loop) this.loop = null;
    });
    this.loop = loop;
  }

  private async halt(): Promise<void> {
    const l = this.loop;
    if (!l) return;
    l.ac.abort();
    await l.done;
  }

  private async run(signal: AbortSignal): Promise<void> {
    const s = this.s;
    const conn = s.connection();
    if (!conn) return;
    const { login, majorVersion, serverName } = conn.identity;
    const sampler = new NowSampler(this.history);
    const ctx = { login, majorVersion, now: () => Date.now() };
    if (this.view.status === 'idle' || this.view.serverName !== serverName)
      this.set({
        ...NOW_IDLE,
        status: 'reading',
        serverName,
        headline: buildNowView(this.history.figures(Date.now()), { serverName, logWriterNode: null, now: Date.now() }).headline,
      });
    let db: DbSession | null = null;
    while (!signal.aborted && !s.disposed) {
      const started = Date.now();
      // An experiment measures the server's work as its own share: a second reader would count as other work on it,
      // and its live charts answer the same question meanwhile. The next read after it is a new baseline.
      if (s.experiment.isRunning) {
        if (this.view.status !== 'paused' && this.view.status !== 'idle')
          this.set({ ...this.view, status: 'paused', headline: `Paused while an experiment runs. ${this.view.headline}` });
        sampler.reset();
        await abortableSleep(NOW_INTERVAL_MS, signal);
        continue;
      }
      try {
        db ??= await DbSession.open(conn.target, { database: 'master', appName: 'Spinlock Lab (Now)' });
        const step = await sampler.step(db, ctx, signal);
        if (signal.aborted) break;
        if (step.kind === 'restart') s.ports.log.info(`Now view: ${step.message}`);
        const lw = s.state.server?.topology.logWriters.find((l) => l.nodeId !== null)?.nodeId ?? null;
        const now = Date.now();
        this.set(buildNowView(this.history.figures(now), { serverName, logWriterNode: lw, now }));
        await abortableSleep(Math.max(0, NOW_INTERVAL_MS - (Date.now() - started)), signal);
      } catch (err) {
        if (signal.aborted) break;
        const e = err instanceof SpinlabError ? err : new SpinlabError('internal', (err as Error).message);
        const permission = e.category === 'permission';
        this.set({
          ...this.view,
          status: 'error',
          headline: permission ? 'The Now view needs a permission the login lacks.' : 'The Now view could not read the server.',
          error: { message: e.headline ?? e.message, ...(permission && e.hint ? { grant: e.hint } : {}) },
        });
        s.ports.log.warn(`Now view: ${e.message}`);
        if (permission) break;
        await db?.close().catch(() => undefined);
        db = null;
        sampler.reset();
        await abortableSleep(NOW_RETRY_MS, signal);
      }
    }
    await db?.close().catch(() => undefined);
  }

  private set(v: NowView): void {
    this.view = v;
    this.post();
  }

  private post(): void {
    if (!this.s.disposed) this.s.ports.post(message(ToWebview.nowUpdate, { now: this.view }));
  }
}
