// Server-wide knobs for the experiment: delayed durability and CPU affinity (typed, picked from shortcuts, or edited
// by clicking the topology map). The host confirms the change in a modal and restores it afterwards.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { cpusByNode, formatSpec } from '../../shared/affinity';
import { rovingFocus, rovingKeydown, rovingTabIndex } from './roving';
import type { KnobSettings, PanelState } from '../../shared/protocol';
import type { ViewContext } from './context';
import type { FormCheck } from '../model/form';
import { field, inputValue, options, section } from './common';
import { CUSTOM_ID, draftOf } from '../model/customDraft';

/** The affinity the server has now, as re-read while a run holds it (then said to be the run's, put back after it). */
function knobsNow(s: PanelState): string {
  const server = s.server!;
  const a = server.knobs.affinity;
  const online = server.topology.schedulers.filter((x) => x.isOnline).length;
  const what = a.type === 'AUTO' ? 'AUTO (every CPU)' : `CPUs ${formatSpec(a.cpus)}`;
  const running = s.active?.status === 'running' || s.active?.status === 'starting';
  return running && s.runJournal?.changes.includes('affinity')
    ? `Now: affinity ${what}, ${online} CPUs online, set by this run and put back when it ends.`
    : `Now: affinity ${what}, ${online} CPUs online. Changes are confirmed before a run and put back after it.`;
}

export function knobsView(app: ViewContext, check: FormCheck | null): TemplateResult {
  return section(app, 'knobs', 'Knobs', () => {
    const form = app.form;
    if (!form || !check) return html`<p class="empty">Loading…</p>`;
    const server = app.state?.server ?? null;
    const t = server?.topology ?? null;
    const setAff = (v: string) =>
      app.editForm((f) => {
        f.knobs.affinity = v;
      });
    const nodes = t ? [...cpusByNode(t).keys()] : [];
    // The shortcuts are one Tab stop (arrow keys move among them).
    const shortcutKeys = ['', 'auto', 'exclude-core0', ...nodes.flatMap((n) => [`numa:${n}`, `numa:${n}-first-core`])];
    const tab = (key: string) => rovingTabIndex('aff', key, shortcutKeys, form.knobs.affinity);
    // A custom workload's delayed durability is its own database's (as `spinlab run --sql --database`); the host reads
    // it there and the confirmation says from what to what.
    const customDb = form.scenarioId === CUSTOM_ID ? draftOf(app).form.database.trim() : null;
    const now = server && customDb === null ? `now ${server.knobs.delayedDurability ?? 'unknown'}` : '';
    return html`
      <div class="knob-grid">
        ${field(
          'knob-dd',
          customDb === null
            ? 'Delayed durability (lab database)'
            : `Delayed durability (${customDb ? `[${customDb}]` : "the workload's database"})`,
          html`<select id="knob-dd" .value=${live(form.knobs.delayedDurability)}
            aria-label="Delayed durability" @change=${(e: Event) =>
              app.editForm((f) => {
                f.knobs.delayedDurability = inputValue(e) as KnobSettings['delayedDurability'];
              })}>
            ${options(form.knobs.delayedDurability, [
              ['unchanged', 'unchanged'],
              ['DISABLED', 'DISABLED'],
              ['ALLOWED', 'ALLOWED (as DISABLED here)', "Behaves as DISABLED: the scenarios' commits do not ask for delayed durability"],
              ['FORCED', 'FORCED'],
            ])}
          </select>`,
          null,
          `${now}${now ? '; ' : ''}FORCED takes WRITELOG off the commit path.`,
        )}
        <div class="affinity">
          ${field(
            'knob-affinity',
            'CPU affinity',
            html`<vscode-textfield id="knob-affinity" .value=${form.knobs.affinity} placeholder="unchanged"
              ?invalid=${Boolean(check.affinityError)} aria-label="CPU affinity spec"
              @input=${(e: Event) => setAff(inputValue(e))}></vscode-textfield>`,
            check.affinityError,
            undefined,
          )}
          ${!check.affinityError ? html`<p class="field-help" id="affinity-resolved" role="status">${check.affinityDescription}</p>` : nothing}
          <div class="shortcuts" role="toolbar" aria-label="Affinity shortcuts (arrow keys move between them)"
            @keydown=${rovingKeydown('aff')} @focusin=${rovingFocus('aff')}>
            <button class="chip" id="aff-unchanged" @click=${() => setAff('')} aria-pressed=${String(form.knobs.affinity === '')}
              data-roving-key="" tabindex=${tab('')}>unchanged</button>
            <button class="chip" id="aff-auto" @click=${() => setAff('auto')} aria-pressed=${String(form.knobs.affinity === 'auto')}
              data-roving-key="auto" tabindex=${tab('auto')} title="SQL Server's default: every CPU">auto</button>
            <button class="chip" id="aff-exclude-core0" @click=${() => setAff('exclude-core0')} aria-pressed=${String(form.knobs.affinity === 'exclude-core0')}
              data-roving-key="exclude-core0" tabindex=${tab('exclude-core0')}
              title="Every CPU except both hyperthreads of core 0 (keeps workers off the log writer's core)">exclude-core0</button>
            ${nodes.map(
              (n) => html`
              <button class="chip" data-aff-node=${String(n)} @click=${() => setAff(`numa:${n}`)} aria-pressed=${String(form.knobs.affinity === `numa:${n}`)}
                data-roving-key=${`numa:${n}`} tabindex=${tab(`numa:${n}`)} title=${`Only NUMA node ${n}`}>numa:${n}</button>
              <button class="chip" data-aff-node-nofirst=${String(n)} @click=${() => setAff(`numa:${n}-first-core`)}
                data-roving-key=${`numa:${n}-first-core`} tabindex=${tab(`numa:${n}-first-core`)}
                aria-pressed=${String(form.knobs.affinity === `numa:${n}-first-core`)}
                title=${`NUMA node ${n} without its first core`}>numa:${n}-first-core</button>`,
            )}
          </div>
          ${
            server
              ? html`<p class="muted small" id="knobs-now">${knobsNow(app.state!)}</p>`
              : html`<p class="muted small">Connect to check the spec against the server's CPUs.</p>`
          }
        </div>
      </div>`;
  });
}
