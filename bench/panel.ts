// Panel: the time to apply one tick to the six live charts with an hour of 1 s samples loaded, in Chromium (the
// browser tier's harness: the real webview bundle under the real CSP, a stub VS Code API); the extension's activation
// time; the VSIX's size.
//
// Activation is measured in Node with a stub `vscode` module (bench/activationProbe.ts): loading dist/extension.js
// (what VS Code calls code loading) and calling activate() (its activate call), in a fresh process each run; the
// figure is the median of the per-run sums. The same probe then times the first command (spinlab.open), which loads
// dist/lab.js: the cost activation no longer pays (issue #17). The e2e tier records VS Code's own figure
// (test-artifacts/e2e/activation.json, read from "Developer: Show Running Extensions" in code-server).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ActiveExperimentView } from '../src/shared/protocol';
import * as b from '../test/helpers/builders';
import { launch, openPanel, startHarness, type PageGlobals } from '../test/browser/harness';
import { median, percentile } from './stats';

export const ROOT = path.resolve(__dirname, '..', '..');

export interface PanelFigures {
  loadedTicks: number;
  /** Posting the hour and seeing every chart drawn, once. */
  loadMs: number;
  tickSamples: number[];
  tickP50Ms: number;
  tickP95Ms: number;
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

type G = PageGlobals & { __hour: unknown; requestAnimationFrame(f: () => void): void; document: { querySelector(s: string): object | null } };

export async function benchPanelTicks(hourTicks: number, samples: number, log: (s: string) => void): Promise<PanelFigures> {
  const harness = await startHarness();
  const browser = await launch();
  try {
    const panel = await openPanel(browser, harness);
    const active: ActiveExperimentView = {
      experimentId: 'exp-1', title: 'disk-insert sweep', scenarioId: 'disk-insert', simulated: true, status: 'running', message: '', events: [],
      runs: [{ index: 0, threads: 16, status: 'running', ticks: b.ticks(hourTicks, { threads: 16 }) }],
    } as ActiveExperimentView;
    const state = b.connectedState({ active });
    await panel.page.evaluate((s) => { (globalThis as unknown as G).__hour = s; }, state as unknown);
    const loadMs = await panel.page.evaluate(async (n) => {
      const g = globalThis as unknown as G;
      const start = performance.now();
      g.postMessage({ type: 'state', payload: { state: g.__hour } }, '*');
      await new Promise<void>((resolve) => {
        const check = () => (g.document.querySelector(`[data-chart="cpu"][data-points="${n}"]`) ? resolve() : g.requestAnimationFrame(check));
        check();
      });
      return performance.now() - start;
    }, hourTicks);
    const times: number[] = [];
    for (let k = 0; k < samples; k++) {
      // One more tick, as the host posts it; timed until the last chart shows it (applied and drawn in a frame).
      const ms = await panel.page.evaluate(async ([tick, n]) => {
        const g = globalThis as unknown as G;
        const start = performance.now();
        g.postMessage({ type: 'tick', payload: { experimentId: 'exp-1', index: 0, tick } }, '*');
        await new Promise<void>((resolve) => {
          const check = () => (g.document.querySelector(`[data-chart="cpu"][data-points="${n}"]`) ? resolve() : g.requestAnimationFrame(check));
          check();
        });
        return performance.now() - start;
      }, [b.tick(hourTicks + k, { threads: 16 }), hourTicks + k + 1] as const);
      times.push(ms);
      await new Promise((r) => setTimeout(r, 50));
    }
    if (panel.errors.length) log(`panel: page errors: ${panel.errors.slice(0, 3).join(' | ')}`);
    await panel.close();
    const fig = { loadedTicks: hourTicks, loadMs, tickSamples: times, tickP50Ms: median(times), tickP95Ms: percentile(times, 95) };
    log(`panel: ${hourTicks} ticks loaded in ${loadMs.toFixed(0)} ms; one more tick applied and drawn: p50 ${fig.tickP50Ms.toFixed(1)} ms, p95 ${fig.tickP95Ms.toFixed(1)} ms (${samples} ticks)`);
    return fig;
  } finally {
    await browser.close();
    await harness.close();
  }
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
    const r = spawnSync(process.execPath, [probe, path.join(ROOT, 'dist', 'extension.js'), '--first-use'], { encoding: 'utf8', timeout: 60_000 });
    const m = /^ACTIVATION load_ms=([\d.]+) activate_ms=([\d.]+) chunks=(\S+) first_use_ms=([\d.]+)/m.exec(r.stdout ?? '');
    if (r.status !== 0 || !m) throw new Error(`activation probe failed (${r.status}): ${(r.stderr || r.stdout || '').slice(0, 500)}`);
    loads.push(Number(m[1]));
    activates.push(Number(m[2]));
    totals.push(Number(m[1]) + Number(m[2]));
    chunks.add(m[3]);
    firstUses.push(Number(m[4]));
  }
  const fig = { codeLoadingMs: median(loads), activateMs: median(activates), totalMs: median(totals), firstUseMs: median(firstUses), chunks: [...chunks].join(' | '), runs };
  log(`panel: activation (Node, stub vscode, fresh process, median of ${runs}): ${fig.totalMs.toFixed(1)} ms = code loading ${fig.codeLoadingMs.toFixed(1)} ms + activate() ${fig.activateMs.toFixed(1)} ms (chunks loaded: ${fig.chunks}); first spinlab.open ${fig.firstUseMs.toFixed(1)} ms`);
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
    await benchPanelTicks(3600, quick ? 5 : 30, console.log);
    benchActivation(quick ? 3 : 10, console.log);
    benchVsix(console.log);
  })().catch((e) => { console.error(e); process.exit(1); });
}
