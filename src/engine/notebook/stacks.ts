// The notebook's "Call stacks" section: for every spinlock backoff call-stack capture an experiment holds
// (experiment.stacks and each run's stacks), a markdown cell with the top stacks as text and the notes, and an output
// cell with a bar chart of the top stacks' shares as SVG (GitHub and Jupyter render image/svg+xml) plus a text form.
import type { Experiment } from '../../shared/experiment';
import { lossSummary, lostAny, type StackCapture } from '../../shared/stacks';
import { frameLabel, treeText } from '../stacks/fold';
import { displayData, type DisplayDataOutput, type NotebookBuilder } from './nbformat';
import { escapeXml } from './svgChart';
import { plural } from '../../shared/plural';

const md = (s: string) => s.replace(/([\\`*_{}[\]<>|#])/g, '\\$1');

/** Every capture in the experiments, with where it came from. */
export function capturesOf(experiments: readonly Experiment[], label: (e: Experiment) => string): { where: string; c: StackCapture }[] {
  return experiments.flatMap((e) => [
    ...(e.stacks ?? []).map((c) => ({ where: label(e), c })),
    ...e.runs.flatMap((r) =>
      (r.stacks ?? []).map((c) => ({ where: `${label(e) ? `${label(e)} ` : ''}run ${r.index + 1} (${plural(r.threads, 'thread')})`, c })),
    ),
  ]);
}

/** The innermost frame that is not the backoff machinery itself: what a bar is named after. */
function barName(frames: StackCapture['buckets'][number]['frames']): string {
  const labels = frames.map(frameLabel);
  const i = labels.findIndex((l) => !/spinlock_backoff::Publish|SpinlockBase::|Spinlock<.*>::SpinToAcquire/.test(l));
  return labels[i < 0 ? 0 : i] ?? '(no frames)';
}

/** A horizontal bar chart of the top stacks' shares, as SVG text (white background, dark ink, as svgChart.ts). */
export function svgStackBars(c: StackCapture, width = 720): string {
  const rows = c.buckets.slice(0, 10);
  const rowH = 26;
  const top = 40;
  const left = 300;
  const height = top + rows.length * rowH + 20;
  const scale = width - left - 70;
  const bars = rows
    .map((b, i) => {
      const y = top + i * rowH;
      const name = barName(b.frames);
      const short = name.length > 44 ? `${name.slice(0, 43)}…` : name;
      return (
        `<text x="${left - 8}" y="${y + 16}" text-anchor="end" font-size="12">${escapeXml(short)}</text>` +
        `<rect x="${left}" y="${y + 4}" width="${Math.max(1, b.share * scale).toFixed(1)}" height="${rowH - 8}" fill="#0072B2"><title>${escapeXml(b.frames.map(frameLabel).join(' < '))}</title></rect>` +
        `<text x="${(left + b.share * scale + 6).toFixed(1)}" y="${y + 16}" font-size="12">${(100 * b.share).toFixed(1)}% (${b.count})</text>`
      );
    })
    .join('');
  const title = `${c.simulated ? 'SIMULATED: ' : ''}${c.spinlock} backoff stacks: ${c.events} events in ${(c.durationMs / 1000).toFixed(1)} s${lostAny(c) ? ` (${c.droppedEvents ?? 0} more dropped)` : ''}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="#ffffff"/><text x="12" y="22" font-size="14" font-weight="bold" fill="#000000">${escapeXml(title)}</text>` +
    `<g fill="#000000">${bars}</g></svg>`
  );
}

/** The capture as plain text: the top stacks, frame by frame, then the tree of shared callers. */
export function captureText(c: StackCapture): string {
  const lines = [
    `${c.spinlock}: ${c.events} sqlos.spinlock_backoff events in ${(c.durationMs / 1000).toFixed(1)} s; DMV backoffs over the same window: ${c.dmvBackoffs ?? 'unknown'}`,
  ];
  const loss = lossSummary(c);
  if (loss) lines.push(`${lostAny(c) ? 'EVENTS LOST: ' : 'Lost: '}${loss}`);
  c.buckets.forEach((b, i) => {
    lines.push(`#${i + 1} ${(100 * b.share).toFixed(1)}% (${b.count} events)`);
    for (const f of b.frames) lines.push(`    ${frameLabel(f)}`);
  });
  if (c.otherCount) lines.push(`(+ ${c.otherCount} events in other stacks)`);
  const tree = treeText(c.tree);
  if (tree.length) lines.push('', 'Shared callers (outermost first):', ...tree);
  return lines.join('\n');
}

function chartOutput(c: StackCapture): DisplayDataOutput {
  return displayData({ 'image/svg+xml': svgStackBars(c), 'text/plain': captureText(c) });
}

/** Adds the section when any experiment holds a capture. */
export function addStacksSection(nb: NotebookBuilder, experiments: readonly Experiment[], label: (e: Experiment) => string): void {
  const all = capturesOf(experiments, label);
  if (!all.length) return;
  nb.markdown(
    "## Call stacks behind the backoffs\n\nCaptured with an Extended Events session of Spinlock Lab's own (sqlos.spinlock_backoff filtered on one spinlock type, the package0.callstack action, a histogram target), dropped afterwards.",
  );
  for (const { where, c } of all) {
    const text = [
      `### ${md(c.spinlock)}${where ? ` (${md(where)})` : ''}, ${md(c.startedAt)}`,
      '',
      c.simulated ? "> **SIMULATED.** The simulator's frames and counts are synthetic, not a real server's stacks.\n" : '',
      `${c.events} events in ${(c.durationMs / 1000).toFixed(1)} s against ${c.dmvBackoffs ?? 'unknown'} DMV backoffs (spinlock_types map_key ${c.mapKey}).`,
      '',
      ...(lossSummary(c) ? [`${lostAny(c) ? '> **Events were lost:** ' : 'Lost: '}${md(lossSummary(c)!)}.`, ''] : []),
      '```text',
      ...c.buckets.flatMap((b, i) => [
        `#${i + 1} ${(100 * b.share).toFixed(1)}% (${b.count} events)`,
        ...b.frames.map((f) => `    ${frameLabel(f)}`),
      ]),
      '```',
      '',
      ...c.notes.map((n) => `- ${md(n)}`),
    ].join('\n');
    nb.markdown(text);
    nb.sql(`-- Chart: ${c.spinlock} backoff stacks. This cell only carries outputs.`, [chartOutput(c)], {
      spinlab: { role: 'stacks', spinlock: c.spinlock, session: c.session },
    });
  }
}
