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
  const amount = w.iterations !== null ? `--iterations ${w.iterations}` : `--duration ${Math.round((e.load.durationMs ?? 0) / 1000)}s`;
  const spinlab = [
    'npx spinlab run',
    '--sql-file 03-workload.sql',
    `--database ${shellQuote(db)}`,
    `--threads ${e.load.threads.join(',')}`,
    amount,
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
  const ostress = e.load.threads.map(
    (n) =>
      `ostress.exe -S"%SPINLAB_SERVER%" -U"%SPINLAB_USER%" -P"%SPINLAB_PASSWORD%" -d"${db}" -n${n} -r${w.iterations ?? 1000} -q -i"03-workload.sql"`,
  );
  return {
    '02-knobs.sql': head + (knobs.length ? join(knobs) : '-- The experiment changed no server-wide setting.\n'),
    '03-workload.sql': head + `USE ${quoteName(db)};\nGO\n` + [...declares, ...statements].join('\n'),
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
      '',
    ].join('\n'),
  };
}
