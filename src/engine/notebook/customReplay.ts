// A custom workload's T-SQL bundle: the user's own statements in their database, the knob it changed, the DMV
// snapshot, and the command lines that run it again. Not the scenario replay: a custom workload deploys nothing and
// calls no Spinlock Lab procedure.
import type { Experiment } from '../../shared/experiment';
import { writeReason } from '../custom/batch';
import { quoteName, shellQuote, step, stepsText } from './replay';
import { repeatOf } from '../../shared/planTime';

const join = stepsText;

export function customTsqlBundle(e: Experiment): Record<string, string> {
  const w = e.custom!;
  const db = w.database;
  const head = `-- Spinlock Lab experiment ${e.id}: ${e.title}\n-- Custom workload in [${db}]; Spinlock Lab deploys and drops nothing there.\n\n`;
  const declares = w.params
    ? [
        '-- Each call takes its parameters from a row of ' +
          (w.params.kind === 'csv' ? `the CSV file ${w.params.from}` : 'the parameter query') +
          '; to run a statement by hand, declare them first:',
        ...w.params.columns.map((c) => `-- DECLARE @${c.name} ${c.type} = <a value from a row>;`),
        '',
      ]
    : [];
  const statements = w.statements.map((s, i) => {
    const why = writeReason([s.text]);
    return `-- Statement ${i + 1} (${s.source.replace(/\r?\n/g, ' ')}): ${why === null ? 'reads' : `WRITES (${why})`}\n${s.text}\nGO\n`;
  });
  const dd = e.knobs.applied.delayedDurability;
  const before = e.knobs.before?.delayedDurability;
  const knobs = dd ? [step(`Delayed durability ${dd}`, 'knobs/delayed-durability', { db, mode: dd })] : [];
  const restore = dd && before ? [step(`Delayed durability back to ${before}`, 'knobs/delayed-durability', { db, mode: before })] : [];
  const all = w.perIteration === 'all';
  const amount = w.iterations !== null ? `--iterations ${w.iterations}` : `--duration ${Math.round((e.load.durationMs ?? 0) / 1000)}s`;
  const spinlab = [
    'npx spinlab run',
    '--sql-file 03-workload.sql',
    `--database ${shellQuote(db)}`,
    `--threads ${e.load.threads.join(',')}`,
    amount,
    all ? '--per-iteration all' : '',
    `--warmup ${e.load.warmupMs}ms`,
    `--interval ${e.load.intervalMs}ms`,
    repeatOf(e) > 1 ? `--repeat ${repeatOf(e)}` : '',
    w.thinkTimeMs ? `--think-time ${w.thinkTimeMs}ms` : '',
    w.queryTimeoutMs !== null ? `--query-timeout ${w.queryTimeoutMs}ms` : '',
    dd ? `--delayed-durability ${dd.toLowerCase()}` : '',
    w.params?.kind === 'csv' ? `--params-csv ${shellQuote(w.params.from)}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const { ostress, note } = ostressLines(e);
  return {
    '02-knobs.sql': head + (knobs.length ? join(knobs) : '-- The experiment changed no server-wide setting.\n'),
    // Only the workload's batches: ostress runs every batch of its -i file each iteration (-d names the database).
    '03-workload.sql':
      head +
      `-- Run it in ${quoteName(db)}: ostress -d, sqlcmd -d, or USE ${quoteName(db)} first.\n\n` +
      [...declares, ...statements].join('\n'),
    '04-sample.sql':
      head + join([step('One DMV snapshot (run before and after the load; subtract)', 'dmv/sample', { db, db_physical: null }, db)]),
    '05-restore.sql': head + (restore.length ? join(restore) : '-- Nothing to put back.\n'),
    'load-commands.txt': [
      `Load command lines for ${e.title}`,
      '',
      'Spinlock Lab (connection string in SPINLAB_CONNECTION, password in SPINLAB_PASSWORD):',
      `  ${spinlab}`,
      '',
      `ostress (RML Utilities; Windows; set SPINLAB_SERVER, SPINLAB_USER and SPINLAB_PASSWORD first), one line per thread count${w.params ? ' (it cannot feed parameter rows: declare them in the file)' : ''}:`,
      ...ostress.map((l) => `  ${l}`),
      ...(note ? [note] : []),
      '',
    ].join('\n'),
  };
}

/**
 * ostress lines that reproduce the run: ostress runs every batch of its -i file, in order, -r times per connection.
 * That is --per-iteration all exactly; a run that took one batch per call, or ran for a time, is said in a note, with
 * -r chosen to send as many batches as it did.
 */
function ostressLines(e: Experiment): { ostress: string[]; note: string | null } {
  const w = e.custom!;
  const k = w.statements.length;
  const all = w.perIteration === 'all';
  /** Iterations per session: as recorded, or (a timed run) what each session did in its last run at that count. */
  const iterations = (n: number): number => {
    if (w.iterations !== null) return all || k === 1 ? w.iterations : Math.ceil(w.iterations / k);
    const run = [...e.runs].reverse().find((r) => r.threads === n && r.custom);
    const calls = run?.custom?.calls ?? 0;
    return Math.max(1, Math.round(calls / n / k));
  };
  const ostress = e.load.threads.map(
    (n) =>
      `ostress.exe -S"%SPINLAB_SERVER%" -U"%SPINLAB_USER%" -P"%SPINLAB_PASSWORD%" -d"${w.database}" -n${n} -r${iterations(n)} -q -i"03-workload.sql"`,
  );
  const notes = [
    ...(w.iterations === null
      ? [
          `ostress runs a number of iterations, not a time: -r is what each session did in the recorded ${Math.round((e.load.durationMs ?? 0) / 1000)} s run.`,
        ]
      : []),
    ...(!all && k > 1
      ? [
          `This run took one batch per call, each session starting at its own (${k} batches in turn); ostress runs all ${k} in order each iteration, so -r sends as many batches but not in the same order (spinlab run --per-iteration all runs as ostress does).`,
        ]
      : []),
  ];
  return { ostress, note: notes.length ? notes.map((n) => `  Note: ${n}`).join('\n') : null };
}
