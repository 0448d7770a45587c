// Panel: the time to apply one tick to the six live charts with an hour (and eight hours) of 1 s samples loaded, in Chromium (the
// browser tier's harness: the real webview bundle under the real CSP, a stub VS Code API); the extension's activation
// time; the VSIX's size.
//
// Activation is measured in Node with a stub `vscode` module (bench/activationProbe.ts): loading dist/extension.js
// (what VS Code calls code loading) and calling activate() (its activate call), in a fresh process each run; the
// figure is the median of the per-run sums. The same probe then times the first command (spinlab.open), which loads
// dist/lab.js: the cost activation no longer pays. The e2e tier records VS Code's own figure
// (test-artifacts/e2e/activation.json, read from "Developer: Show Running Extensions" in code-server).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { message, ToWebview, type ActiveExperimentView } from '../src/shared/protocol';
import { fullStatePayload } from '../src/shared/stateSnapshot';
import * as b from '../test/helpers/builders';
import { launch, openPanel, startHarness, type PageGlobals } from '../test/browser/harness';
import { ensureDebianPackage } from './apt';
import { median, percentile } from './stats';

export const ROOT = path.resolve(__dirname, '..', '..');

/** One load (an hour, or eight hours, of 1 s ticks) and the ticks timed on top of it. */
export interface PanelLoadFigures {
  loadedTicks: number;
  /** Posting the state message with the ticks until all six charts have drawn them (each chart's data-points): the median of fresh pages. */
  loadMs: number;
  /** Each fresh page's figure. */
  loadSamples: number[];
  /** The same, until the next frame after that (what the eye sees). */
  loadFrameMs: number;
  /** The host's part, apart: building the full snapshot's payload (the ticks into columns), in Node. */
  hostEncodeMs?: number;
  tickSamples: number[];
  /** Posting one tick until all six charts have drawn it (applied, and drawn on their canvases). */
  tickP50Ms: number;
  tickP95Ms: number;
  /** The same, until the next frame after that: includes the wait for the display's next frame (60 Hz here). */
  tickFrameP50Ms: number;
  tickFrameP95Ms: number;
}

/** An hour of ticks (the figures the README quotes) and, when measured, four and eight hours. */
export interface PanelFigures extends PanelLoadFigures {
  fourHours?: PanelLoadFigures | null;
  eightHours: PanelLoadFigures | null;
}

export interface ActivationFigures {
  /** Medians over the runs: code loading, activate(), and the two together (the median of each run's sum). */
  codeLoadingMs: number;
  activateMs: number;
  totalMs: number;
  /** The first spinlab.open: loading dist/lab.js and showing the panel (stub vscode). */
  firstUseMs: number;
  /** The dist/ chunks loaded by activation (should be extension.js alone). */
  chunks: string;
  runs: number;
}

export interface VsixFigures {
  bytes: number;
  files: number | null;
  built: boolean;
}

type G = PageGlobals & { __hour: unknown; requestAnimationFrame(f: () => void): void };
type Doc = {
  querySelectorAll(
    s: string,
  ): ArrayLike<{ getAttribute(n: string): string | null; getBoundingClientRect(): { top: number; bottom: number } }>;
  querySelector(s: string): { scrollIntoView(): void } | null;
};
declare const MutationObserver: new (cb: () => void) => {
  observe(el: unknown, o: { attributes: boolean; attributeFilter: string[] }): void;
  disconnect(): void;
};

/**
 * In the page: posts a message and resolves when every chart of the experiment view holds n samples (its
 * data-points, written after the chart drew them), then once more at the next frame. Both times from the post.
 */
function postAndWait(message: unknown, n: number): Promise<{ drawn: number; frame: number }> {
  const g = globalThis as unknown as G & { document: Doc; innerHeight: number };
  const cards = g.document.querySelectorAll('#section-charts [data-chart]');
  const done = () => Array.from(cards).every((c) => c.getAttribute('data-points') === String(n));
  return new Promise((resolve, reject) => {
    if (cards.length !== 6) return reject(new Error(`expected 6 charts, found ${cards.length}`));
    const off = Array.from(cards).filter((c) => c.getBoundingClientRect().bottom > g.innerHeight || c.getBoundingClientRect().top < 0);
    if (off.length) return reject(new Error(`${off.length} charts are off screen: the bench times all six on screen`));
    const start = performance.now();
    const obs = new MutationObserver(() => {
      if (!done()) return;
      const drawn = performance.now() - start;
      obs.disconnect();
      g.requestAnimationFrame(() => resolve({ drawn, frame: performance.now() - start }));
    });
    for (let i = 0; i < cards.length; i++) obs.observe(cards[i], { attributes: true, attributeFilter: ['data-points'] });
    g.postMessage(message, '*');
  });
}

export async function benchPanelTicks(
  loadedTicks: number,
  samples: number,
  log: (s: string) => void,
  loadRuns = 3,
): Promise<PanelLoadFigures> {
  const harness = await startHarness();
  const browser = await launch();
  try {
    const active: ActiveExperimentView = {
      experimentId: 'exp-1',
      title: 'disk-insert sweep',
      scenarioId: 'disk-insert',
      simulated: true,
      status: 'running',
      message: '',
      events: [],
      runs: [{ index: 0, threads: 16, status: 'running', ticks: b.ticks(loadedTicks, { threads: 16 }) }],
    } as ActiveExperimentView;
    // What the host posts after `ready`: the ticks as columns (shared/stateSnapshot.ts), built here as the host does.
    // Only the encoding is timed (the builder's state reads the scenarios from disk).
    const state = b.connectedState({ active });
    const encodeStart = performance.now();
    const payload = fullStatePayload(state);
    const hostEncodeMs = performance.now() - encodeStart;
    // playwright passes JSON: the typed arrays go as lists and are typed again in the page, before the clock starts.
    const wire = JSON.parse(
      JSON.stringify(payload, (_k, v: unknown) => (ArrayBuffer.isView(v) ? { [v.constructor.name]: Array.from(v as Float64Array) } : v)),
    );
    // A first draw happens once per panel, on cold code: one sample is noise. Each load is a fresh page; the figure is
    // their median, and the last page goes on to time the ticks.
    const loads: { drawn: number; frame: number }[] = [];
    let panel: Awaited<ReturnType<typeof openPanel>> | null = null;
    for (let k = 0; k < loadRuns; k++) {
      if (panel) await panel.close();
      // Tall enough that all six charts are on screen once scrolled to: the panel draws only the charts in view.
      panel = await openPanel(browser, harness, 'dark', { width: 1280, height: 1400 });
      await panel.page.evaluate((s) => {
        const typed = (o: unknown): unknown => {
          if (Array.isArray(o)) return o.map(typed);
          if (!o || typeof o !== 'object') return o;
          const r = o as Record<string, unknown>;
          // The typed arrays a snapshot's columns travel in (shared/tickColumns.ts), typed again by their names.
          const types = { Float64Array, Float32Array, Uint32Array, Uint16Array, Uint8Array };
          for (const [name, T] of Object.entries(types)) if (Array.isArray(r[name])) return T.from(r[name] as number[]);
          return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typed(v)]));
        };
        (globalThis as unknown as G).__hour = typed(s);
      }, wire as unknown);
      await panel.page.evaluate(() =>
        (globalThis as unknown as { document: Doc }).document.querySelector('#section-charts')?.scrollIntoView(),
      );
      loads.push(
        await panel.page.evaluate(
          ([fn, n]) => {
            const wait = new Function(`return ${fn}`)() as typeof postAndWait;
            return wait({ type: 'state', payload: (globalThis as unknown as G).__hour }, n);
          },
          [postAndWait.toString(), loadedTicks] as const,
        ),
      );
    }
    if (!panel) throw new Error('no panel loaded');
    const load = { drawn: median(loads.map((l) => l.drawn)), frame: median(loads.map((l) => l.frame)) };
    const drawn: number[] = [];
    const frames: number[] = [];
    for (let k = 0; k < samples; k++) {
      // One more tick, as the host posts it.
      const r = await panel.page.evaluate(
        ([fn, tick, n]) => {
          const wait = new Function(`return ${fn}`)() as typeof postAndWait;
          return wait(tick, n);
        },
        [
          postAndWait.toString(),
          message(ToWebview.runTick, { experimentId: 'exp-1', index: 0, tick: b.tick(loadedTicks + k, { threads: 16 }) }),
          loadedTicks + k + 1,
        ] as const,
      );
      drawn.push(r.drawn);
      frames.push(r.frame);
      await new Promise((res) => setTimeout(res, 50));
    }
    if (panel.errors.length) log(`panel: page errors: ${panel.errors.slice(0, 3).join(' | ')}`);
    await panel.close();
    const fig: PanelLoadFigures = {
      loadedTicks,
      loadMs: load.drawn,
      loadFrameMs: load.frame,
      hostEncodeMs,
      loadSamples: loads.map((l) => l.drawn),
      tickSamples: drawn,
      tickP50Ms: median(drawn),
      tickP95Ms: percentile(drawn, 95),
      tickFrameP50Ms: median(frames),
      tickFrameP95Ms: percentile(frames, 95),
    };
    log(
      `panel: ${loadedTicks} ticks loaded and drawn in ${loadMs(fig)} (the host's columns: ${hostEncodeMs.toFixed(0)} ms in Node); one more tick applied and drawn: p50 ${fig.tickP50Ms.toFixed(1)} ms, ` +
        `p95 ${fig.tickP95Ms.toFixed(1)} ms; on screen at the next frame: p50 ${fig.tickFrameP50Ms.toFixed(1)} ms, p95 ${fig.tickFrameP95Ms.toFixed(1)} ms (${samples} ticks)`,
    );
    return fig;
  } finally {
    await browser.close();
    await harness.close();
  }
}

const loadMs = (f: PanelLoadFigures) =>
  `${f.loadMs.toFixed(0)} ms (next frame ${f.loadFrameMs.toFixed(0)} ms; median of ${f.loadSamples.map((v) => v.toFixed(0)).join(', ')})`;

/** An hour, four hours and eight hours of 1 s ticks: 3,600, 14,400 and 28,800; each first draw the median of fresh panels. */
export async function benchPanel(samples: number, log: (s: string) => void, loadRuns = 3): Promise<PanelFigures> {
  // The browser tier's Chromium (Debian's; test/browser/harness.ts), installed here too when a fresh machine lacks it.
  const missing = ensureDebianPackage('chromium', '/usr/bin/chromium', log);
  if (missing) throw new Error(`the panel is timed in Chromium: ${missing}`);
  const hour = await benchPanelTicks(3600, samples, log, loadRuns);
  const fourHours = await benchPanelTicks(14_400, samples, log, loadRuns);
  return { ...hour, fourHours, eightHours: await benchPanelTicks(28_800, samples, log, loadRuns) };
}

/** Loads dist/extension.js and calls activate() with a stub vscode, in a fresh process each time; medians. */
export function benchActivation(runs: number, log: (s: string) => void): ActivationFigures {
  const probe = path.join(__dirname, 'activationProbe.js');
  const loads: number[] = [];
  const activates: number[] = [];
  const totals: number[] = [];
  const firstUses: number[] = [];
  const chunks = new Set<string>();
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [probe, path.join(ROOT, 'dist', 'extension.js'), '--first-use'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const m = /^ACTIVATION load_ms=([\d.]+) activate_ms=([\d.]+) chunks=(\S+) first_use_ms=([\d.]+)/m.exec(r.stdout ?? '');
    if (r.status !== 0 || !m) throw new Error(`activation probe failed (${r.status}): ${(r.stderr || r.stdout || '').slice(0, 500)}`);
    loads.push(Number(m[1]));
    activates.push(Number(m[2]));
    totals.push(Number(m[1]) + Number(m[2]));
    chunks.add(m[3]);
    firstUses.push(Number(m[4]));
  }
  const fig = {
    codeLoadingMs: median(loads),
    activateMs: median(activates),
    totalMs: median(totals),
    firstUseMs: median(firstUses),
    chunks: [...chunks].join(' | '),
    runs,
  };
  log(
    `panel: activation (Node, stub vscode, fresh process, median of ${runs}): ${fig.totalMs.toFixed(1)} ms = code loading ${fig.codeLoadingMs.toFixed(1)} ms + activate() ${fig.activateMs.toFixed(1)} ms (chunks loaded: ${fig.chunks}); first spinlab.open ${fig.firstUseMs.toFixed(1)} ms`,
  );
  return fig;
}

/** The VSIX scripts/package.js builds; built again when missing or older than the bundles it packs. */
export function benchVsix(log: (s: string) => void): VsixFigures {
  const vsix = path.join(ROOT, 'spinlock-lab.vsix');
  const bundles = ['extension.js', 'lab.js', 'webview.js', 'renderer.js'].map((f) => path.join(ROOT, 'dist', f));
  const newest = Math.max(...bundles.map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)));
  let built = false;
  let files: number | null = null;
  if (!fs.existsSync(vsix) || fs.statSync(vsix).mtimeMs < newest) {
    log('panel: building spinlock-lab.vsix (node scripts/package.js)');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'package.js')], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0) throw new Error(`scripts/package.js failed: ${(r.stderr || r.stdout).slice(-800)}`);
    const m = /package: \S+ \d+ KiB, (\d+) files/.exec(r.stdout);
    if (m) files = Number(m[1]);
    built = true;
  }
  const bytes = fs.statSync(vsix).size;
  log(`panel: spinlock-lab.vsix ${(bytes / 1024).toFixed(0)} KiB${files !== null ? `, ${files} files` : ''}${built ? ' (built now)' : ''}`);
  return { bytes, files, built };
}

if (require.main === module) {
  const quick = process.argv.includes('--quick');
  (async () => {
    await benchPanel(quick ? 5 : 30, console.log);
    benchActivation(quick ? 3 : 10, console.log);
    benchVsix(console.log);
  })().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
