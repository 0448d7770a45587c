// Plain-text views of a preset's experiment for the terminal: the header, then each analysis view of presetViews.ts
// (runs by arm, A/B comparisons, scaling, doing the math, the WRITELOG diagnosis) as a table and its sentences.
import type { Experiment } from '../shared/experiment';
import { citePost } from '../shared/posts';
import type { Preset } from './presets';
import { presetViews } from './presetViews';
import { table } from './report';

export function presetReport(e: Experiment, preset: Preset, unit = 'rows'): string {
  const out: string[] = [];
  if (e.simulated) out.push('SIMULATED: these numbers come from the Spinlock Lab simulator, not from a SQL Server.\n');
  out.push(
    `${e.title}\npreset ${preset.id}, reproducing ${citePost(preset.post)}\nserver ${e.server.serverName} (${e.server.productVersion}, ${e.server.edition}); lab database [${e.labDatabase}]`,
  );
  out.push(`Question: ${preset.question}`);
  const notes = e.preset?.notes ?? [];
  if (notes.length) {
    out.push('\nHow it adapted to this server');
    for (const n of notes) out.push(`  - ${n}`);
  }
  for (const v of presetViews(e, unit)) {
    out.push(`\n${v.title}`);
    if (v.rows.length) out.push(table(v.headers, v.rows));
    out.push(...v.lines.map((l) => `  ${l}`));
  }
  const problems = e.events.filter((x) => x.level !== 'info');
  if (problems.length) {
    out.push('\nWhat happened');
    for (const p of problems) out.push(`  ${p.level}: ${p.message}`);
  }
  return out.join('\n');
}
