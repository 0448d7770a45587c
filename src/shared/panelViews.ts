// The panel's views, one question each, switched from its header, the Activity Bar and a reveal. Shared so the tree,
// the host's reveal check and the webview name them alike.
export const PANEL_VIEWS = ['now', 'experiment', 'results', 'watch', 'stacks', 'tune', 'history'] as const;
export type PanelView = (typeof PANEL_VIEWS)[number];

/** Each view's tab name and the question it answers (the tree item's tooltip). */
export const PANEL_VIEW_INFO: Readonly<Record<PanelView, { name: string; question: string; icon: string }>> = {
  now: { name: 'Now', question: 'What is wrong on this server right now?', icon: 'pulse' },
  experiment: { name: 'Experiment', question: 'Run a scenario or a preset with chosen knobs, and watch it live.', icon: 'beaker' },
  results: { name: 'Results and compare', question: 'What did the runs measure, and how do they compare?', icon: 'table' },
  watch: { name: 'Watch', question: 'What does this server do under its own workload, over a long window?', icon: 'eye' },
  stacks: { name: 'Stacks', question: 'Why is it spinning: which code paths take the spinlock?', icon: 'call-hierarchy-incoming' },
  tune: { name: 'Best settings', question: 'Which settings give the most throughput here?', icon: 'rocket' },
  history: { name: 'History', question: "This server's experiments over time.", icon: 'history' },
};

export function isPanelView(v: unknown): v is PanelView {
  return typeof v === 'string' && (PANEL_VIEWS as readonly string[]).includes(v);
}

/** The view `step` places after `from` (wrapping), for the keyboard shortcut that moves between views. */
export function stepView(from: PanelView, step: number): PanelView {
  const n = PANEL_VIEWS.length;
  return PANEL_VIEWS[(((PANEL_VIEWS.indexOf(from) + step) % n) + n) % n];
}
