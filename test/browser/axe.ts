// axe-core run on the panel as it stands: its source evaluated in the page through the debugger protocol (not a
// <script>, so the panel's strict CSP stays on and the harness still sees any violation), then axe.run on the body.
// Colour contrast always; the other serious or critical rules too, but for those wrong for a VS Code webview.
import * as fs from 'node:fs';
import type { Page } from 'playwright-core';

let source: string | null = null;

/** Rules that do not apply to a webview (each with why). */
const OFF: Record<string, { enabled: false }> = {
  // The panel is a fragment inside VS Code's editor area: the workbench owns the document's landmarks, title and lang.
  region: { enabled: false },
  'landmark-one-main': { enabled: false },
  'page-has-heading-one': { enabled: false },
  'document-title': { enabled: false },
  'html-has-lang': { enabled: false },
};

/**
 * Rules axe applies to the <input> inside a vscode-elements field's shadow root (a target "host,inner"): the panel
 * names the field itself (its <label for> or aria-label), which the library does not pass to that inner input.
 */
const SHADOW_INPUT_RULES = new Set(['label', 'aria-input-field-name']);

export interface AxeFinding {
  rule: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** The serious and critical findings (every colour-contrast one, whatever its impact) on the page now. */
export async function axeFindings(page: Page, selector = 'body'): Promise<AxeFinding[]> {
  source ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(source);
  const raw = await page.evaluate(
    async ({ selector, rules }) => {
      const axe = (globalThis as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<unknown> } }).axe;
      type Result = {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: (string | string[])[]; failureSummary?: string; any?: { data?: { messageKey?: string } | null }[] }[];
      };
      const r = (await axe.run(selector, { rules, resultTypes: ['violations', 'incomplete'] })) as {
        violations: Result[];
        incomplete: Result[];
      };
      // Text in its own background's colour (black on black) is only "needs review" to axe, which takes it for hidden
      // text; a panel never hides text that way, so it fails here.
      const unreadable = r.incomplete
        .filter((v) => v.id === 'color-contrast')
        .map((v) => ({
          ...v,
          help: 'Text in the colour of its own background (1:1)',
          nodes: v.nodes
            .filter((n) => n.any?.some((c) => c.data?.messageKey === 'equalRatio'))
            .map((n) => ({ ...n, failureSummary: 'equal foreground and background colours' })),
        }))
        .filter((v) => v.nodes.length);
      const doc = (globalThis as unknown as { document: { querySelector(s: string): { hasAttribute(a: string): boolean } | null } })
        .document;
      // WCAG 1.4.3 leaves out inactive controls: the text inside a disabled vscode-elements control's shadow root,
      // which axe does not see as disabled.
      // A node in a shadow root has its target as one list: [host, inner].
      const inactive = (v: { id: string }, n: { target: (string | string[])[] }) => {
        const path = n.target.flat();
        return v.id === 'color-contrast' && path.length > 1 && Boolean(doc.querySelector(path[0])?.hasAttribute('disabled'));
      };
      return [...r.violations, ...unreadable].map((v) => ({
        rule: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes
          .filter((n) => !inactive(v, n))
          .map((n) => ({ target: n.target.flat().join(','), summary: (n.failureSummary ?? '').split('\n').slice(0, 2).join(' ') })),
      }));
    },
    { selector, rules: OFF },
  );
  return raw
    .map((f) => ({ ...f, nodes: f.nodes.filter((n) => !(SHADOW_INPUT_RULES.has(f.rule) && n.target.includes(','))) }))
    .filter((f) => f.nodes.length && (f.rule === 'color-contrast' || f.impact === 'serious' || f.impact === 'critical'));
}

/** The findings as lines for an assertion's message. */
export function describeFindings(findings: readonly AxeFinding[]): string {
  return findings
    .map((f) => `${f.rule} (${f.impact}): ${f.help}\n${f.nodes.map((n) => `  ${n.target}: ${n.summary}`).join('\n')}`)
    .join('\n');
}
