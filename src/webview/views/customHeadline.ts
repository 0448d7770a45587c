// A custom workload's headline in the Results: what its own sessions did at each thread count (calls/s and latency
// with their intervals over repetitions, their CPU, reads and waits per call), then the server's spinlocks and waits
// per second in a section labelled server-wide, with the workload's share; per call only where it owned the server
// (shared/customHeadline.ts, the CLI's and the notebook's rule).
import { html, nothing, type TemplateResult } from 'lit';
import { topNames } from '../../shared/analysis';
import { customCells, OWNED_SHARE, ownWaitsText, perCallNa } from '../../shared/customHeadline';
import { estimateText } from '../../shared/repeats';
import { figureText } from '../../shared/numberText';
import { countText, quantityText } from '../../shared/units';
import type { ResultRow } from '../model/results';

const us = (v: number) => quantityText(v, 'µs', { inTable: true });

export function customHeadlineView(rows: readonly ResultRow[]): TemplateResult | typeof nothing {
  const ended = rows.filter((r) => r.own);
  if (!ended.length) return nothing;
  const cells = customCells(ended.map((r) => ({ arm: r.arm ?? '', threads: r.figures.threads, head: r.own! })));
  const arms = new Set(cells.map((c) => c.arm)).size > 1;
  const spins = topNames(
    ended.map((r) => r.figures.spins),
    3,
  );
  const waits = topNames(
    ended.map((r) => r.figures.waitMs),
    2,
  );
  const perSec = (r: ResultRow, v: number | undefined) => (v ?? 0) / Math.max(r.figures.elapsedSec, 1e-9);
  return html`<div id="custom-headline">
    <h3 class="subhead">The workload's own sessions</h3>
    <div class="table-wrap"><table class="data-table" aria-label="The workload's own sessions, per thread count">
      <thead><tr>${arms ? html`<th scope="col">Arm</th>` : nothing}<th scope="col" class="num">Threads</th><th scope="col" class="num">Runs</th>
        <th scope="col" class="num">Calls/s</th><th scope="col" class="num" title="Client latency per call, median">p50</th>
        <th scope="col" class="num" title="Client latency per call, 99th percentile">p99</th>
        <th scope="col" class="num" title="The workload's own sessions' CPU per call (sys.dm_exec_sessions)">CPU/call</th>
        <th scope="col" class="num" title="The workload's own sessions' logical reads per call (sys.dm_exec_sessions)">Reads/call</th>
        <th scope="col" title="The workload's own sessions' waits, benign excluded (sys.dm_exec_session_wait_stats)">Session waits</th></tr></thead>
      <tbody>${cells.map(
        (c) => html`<tr data-threads=${String(c.threads)} data-n=${String(c.n)}>${arms ? html`<th scope="row">${c.arm}</th>` : nothing}
        <td class="num">${c.threads}</td><td class="num">${c.n}</td>
        <td class="num" data-figure="callsPerSec">${estimateText(c.callsPerSec)}</td>
        <td class="num" data-figure="p50">${estimateText(c.p50Us, us)}</td><td class="num" data-figure="p99">${estimateText(c.p99Us, us)}</td>
        <td class="num" data-figure="cpuPerCall">${estimateText(c.cpuUsPerCall, us)}</td>
        <td class="num" data-figure="readsPerCall">${estimateText(c.logicalReadsPerCall)}</td>
        <td data-figure="sessionWaits">${ownWaitsText(c.waits, 2, countText)}</td></tr>`,
      )}</tbody>
    </table></div>
    <div id="custom-server-wide" class="notes" role="note" aria-label="Server-wide, per second">
      <h4 class="small">Server-wide (every session on the server), per second</h4>
      <p class="small muted">Not the workload's alone: per call only where its own sessions did at least ${Math.round(OWNED_SHARE * 100)}% of the
        server's work.</p>
      <ul class="summary small">${ended.map(
        (r) =>
          html`<li data-run=${String(r.run)} data-owned=${r.own!.owned ? 'yes' : 'no'}>Run ${r.run + 1} (${r.figures.threads} session${
            r.figures.threads === 1 ? '' : 's'
          }): ${
            [
              ...spins.map((s) => `${s} ${figureText(perSec(r, r.figures.spins[s]))} spins/s`),
              ...waits.map((w) => `${w} ${figureText(perSec(r, r.figures.waitMs[w]))} ms/s`),
            ].join(', ') || 'nothing spun or waited'
          }${
            r.own!.owned
              ? html`; per call: ${spins.map((s) => `${s} ${figureText(r.figures.spinsPerRow[s] ?? 0)} spins`).join(', ')}`
              : html`; per call: ${perCallNa(r.share)}`
          }</li>`,
      )}</ul>
    </div>
  </div>`;
}
