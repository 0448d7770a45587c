// The connected server: version, edition (with a loud SIMULATOR badge), the CPU topology map (NUMA nodes, cores,
// CPUs; online schedulers, the log writer's CPUs; clicking edits the affinity spec), memory model and trace flags.
import { html, nothing, type TemplateResult } from 'lit';
import { coreSiblings, cpusByNode } from '../../shared/affinity';
import { ToHost } from '../../shared/protocol';
import type { ServerIdentity, Topology } from '../../shared/types';
import type { ViewContext } from './context';
import { selectionOf, toggleCpu, toggleNode } from '../model/affinityEdit';
import { plural, section } from './common';
import { checkList } from './serverCheck';
import { rovingFocus, rovingKeydown, rovingTabIndex } from './roving';

function badge(id: ServerIdentity): TemplateResult {
  if (id.simulated) {
    return html`<span id="server-badge" class="badge badge-sim" title="The Spinlock Lab simulator: every number is synthetic">SIMULATOR</span>`;
  }
  const short = id.edition.replace(/\s*\(64-bit\)/i, '').replace(/ Edition$/i, '');
  return html`<span id="server-badge" class="badge">${short}</span>`;
}

const kb = (v: number | null) => (v === null ? 'n/a' : v === 0 ? 'none' : `${(v / 1024 / 1024).toFixed(1)} GB`);

function facts(id: ServerIdentity, t: Topology): TemplateResult {
  const flags =
    t.traceFlags === null
      ? 'could not be read (needs sysadmin for DBCC TRACESTATUS)'
      : t.traceFlags
          .filter((f) => f.global && f.status)
          .map((f) => f.flag)
          .join(', ') || 'none';
  const missing = [
    !id.permissions.viewServerState ? 'VIEW SERVER STATE (spinlock and wait statistics)' : null,
    !id.permissions.alterSettings ? 'ALTER SETTINGS (affinity)' : null,
    id.permissions.viewDatabaseState === false ? 'VIEW DATABASE STATE (log and index counters)' : null,
  ].filter((x): x is string => x !== null);
  return html`<dl class="facts">
    <dt>Version</dt><dd title=${id.versionBanner}>${id.productVersion} · ${id.edition}</dd>
    <dt>Server</dt><dd>${id.serverName}${id.machineName && id.machineName !== id.serverName ? ` on ${id.machineName}` : ''} · login ${id.login}</dd>
    <dt>CPUs</dt><dd>${plural(t.cpuCount, 'logical CPU')}, ${plural(t.socketCount, 'socket')} × ${t.coresPerSocket} cores,
      ${plural(t.numaNodeCount, 'NUMA node')}${t.softNuma && t.softNuma !== 'OFF' ? ` (soft-NUMA ${t.softNuma})` : ''} · affinity ${t.affinityType}</dd>
    <dt>Memory</dt><dd>${t.memoryModel ?? 'model not reported'} · large pages ${kb(t.largePageAllocationsKb)} · locked pages ${kb(t.lockedPageAllocationsKb)}</dd>
    <dt>Trace flags</dt><dd>${flags}</dd>
    <dt>In-Memory OLTP</dt><dd>${id.xtpSupported ? 'supported' : 'not supported on this edition'}</dd>
    ${missing.length ? html`<dt>Missing</dt><dd class="warn-text">${missing.join('; ')}</dd>` : nothing}
  </dl>`;
}

export function topologyMap(app: ViewContext, t: Topology): TemplateResult {
  const spec = app.form?.knobs.affinity ?? '';
  const sel = selectionOf(spec, t);
  const lwCpus = new Set(t.logWriters.map((l) => l.cpuId).filter((c): c is number => c !== null));
  const sched = new Map(t.schedulers.map((s) => [s.cpuId, s]));
  const edit = (next: string) =>
    app.editForm((f) => {
      f.knobs.affinity = next;
    });
  const perSocket = t.hyperthreadRatio > 0 ? t.hyperthreadRatio : t.cpuCount;
  const nodes = [...cpusByNode(t).entries()];
  // The CPU tiles are one Tab stop: the arrow keys move among them, Space or Enter toggles one.
  const keys = nodes.flatMap(([, cpus]) => cpus.map(String));
  return html`<div id="topology" class="topology" role="group"
    aria-label="CPU topology: click a CPU or a node to edit the affinity; arrow keys move between CPUs, Space toggles one"
    @keydown=${rovingKeydown('cpus')} @focusin=${rovingFocus('cpus')}>
    ${nodes.map(([node, cpus]) => {
      const allIn = cpus.every((c) => sel.cpus.has(c));
      const sockets = [...new Set(cpus.map((c) => Math.floor(c / perSocket)))];
      const cores: number[][] = [];
      for (const c of cpus) {
        const first = coreSiblings(c, t)[0];
        const last = cores[cores.length - 1];
        if (last && coreSiblings(last[0], t)[0] === first) last.push(c);
        else cores.push([c]);
      }
      const online = cpus.filter((c) => sched.get(c)?.isOnline).length;
      return html`<div class="numa-node" data-node=${String(node)}>
        <button class="node-toggle" data-node-toggle=${String(node)} aria-pressed=${String(allIn)}
          title=${allIn ? `Take node ${node} out of the affinity` : `Add all of node ${node} to the affinity`}
          @click=${() => edit(toggleNode(spec, node, t))}>
          NUMA node ${node} <span class="muted">· socket ${sockets.join(', ')} · ${online}/${cpus.length} online</span>
        </button>
        <div class="cores">
          ${cores.map(
            (core, k) => html`<div class="core" title=${`core ${k} of node ${node}`}>
            ${core.map((c) => {
              const s = sched.get(c);
              const isOnline = Boolean(s?.isOnline);
              const lw = lwCpus.has(c);
              const pressed = sel.cpus.has(c);
              // The name starts with the tile's visible text ("3 LW"), as speech input users say it.
              const label = `CPU ${c}${lw ? ' LW' : ''}: scheduler ${s?.schedulerId ?? '?'} ${isOnline ? 'online' : 'offline'}${lw ? ', runs the log writer' : ''}; ${pressed ? 'in' : 'not in'} the affinity`;
              return html`<button class="cpu" data-cpu=${String(c)} data-online=${String(isOnline)} data-logwriter=${String(lw)}
                aria-pressed=${String(pressed)} aria-label=${label} title=${label}
                data-roving-key=${String(c)} tabindex=${rovingTabIndex('cpus', String(c), keys)}
                @click=${() => edit(toggleCpu(spec, c, t))}>${c}${lw ? html` <span class="lw">LW</span>` : nothing}</button>`;
            })}
          </div>`,
          )}
        </div>
      </div>`;
    })}
  </div>
  <p class="legend muted"><span class="key key-on"></span> in the affinity <span class="key key-offline"></span> scheduler offline now
    <span class="key key-lw">LW</span> log writer · click a CPU or a node to edit the affinity spec in the Experiment view's Knobs (arrow keys move
    between CPUs)</p>`;
}

export function serverView(app: ViewContext): TemplateResult {
  const sv = app.state?.server ?? null;
  return section(
    app,
    'server',
    'Server',
    () => {
      if (!sv) return html`<p class="empty">Not connected. Connect above to see the server's version, CPUs and NUMA nodes.</p>`;
      return html`
      <div class="server-head">
        ${badge(sv.identity)}
        <span class="server-name">${sv.identity.versionBanner}</span>
        <button class="chip" @click=${() => app.post(ToHost.serverRefresh, {})} title="Read the topology and settings again">Refresh</button>
      </div>
      ${sv.identity.simulated ? html`<p class="hint">This is the Spinlock Lab simulator: the charts show a model of contention, not a measurement.</p>` : nothing}
      <div class="server-grid">
        ${facts(sv.identity, sv.topology)}
        <div>${topologyMap(app, sv.topology)}</div>
      </div>
      ${checkList(app, app.state?.check)}`;
    },
    {
      summaryExtra: sv
        ? html`<span class="summary-note">${sv.identity.serverName} · ${sv.identity.productVersion}${sv.identity.simulated ? ' · SIMULATOR' : ''}</span>`
        : undefined,
    },
  );
}
