// The words `spinlab check` says about experiments on the server (checkJournal.ts finds them): the restore journal,
// in its state, and an experiment running now; and why either would refuse a run now. Apart from check.ts and
// checkJournal.ts so that both read it and neither imports the other's text.

/** One setting a journal covers: as it is now on the server, and as it was before the experiment (null: not known). */
export interface JournalSetting {
  setting: string;
  now: string | null;
  before: string | null;
}

export interface CheckJournal {
  /** The journal file on this machine. */
  file: string;
  /**
   * pending: an earlier experiment changed settings and did not put them back (`spinlab restore` does);
   * live: the experiment that wrote it is running now and puts them back itself when it ends;
   * unreadable: the file cannot be read, so what it covers is checked by hand.
   */
  state: 'pending' | 'live' | 'unreadable';
  /** Who wrote it (null where an unreadable file does not say). */
  pid: number | null;
  host: string | null;
  createdAt: string | null;
  labDatabase: string | null;
  /** The experiment's output folder: `spinlab restore` completes its record there. */
  experimentDir: string | null;
  /** A live experiment: who holds its locks, in words. */
  owner: string | null;
  settings: JournalSetting[];
  /** Why the file cannot be read. */
  error: string | null;
  /** What to do, in words (by hand, for an unreadable one: the statements). */
  fix: string[];
}

const q = (name: string) => `[${name.replace(/]/g, ']]')}]`;

/** What the report holds about experiments (CheckReport's journal and running). */
export interface ExperimentsOnServer {
  journal?: CheckJournal | null;
  running?: string | null;
}

/** The settings a journal covers other than event sessions (a stack capture's session stands in no run's way). */
const knobSettings = (j: CheckJournal) => j.settings.filter((s) => !s.setting.startsWith('event session'));

/** "process 20562 on lab-01, started 2026-...Z, lab database [SpinlockLab]" (without the process when `owner` says it). */
const who = (j: CheckJournal, owner = false) =>
  [
    j.pid !== null && !owner ? `process ${j.pid}${j.host ? ` on ${j.host}` : ''}` : null,
    j.createdAt ? `started ${j.createdAt}` : null,
    j.labDatabase ? `lab database ${q(j.labDatabase)}` : null,
  ]
    .filter(Boolean)
    .join(', ');

/** The report's lines about the journal and a running experiment (none when there are neither). */
export function journalLines(r: ExperimentsOnServer): string[] {
  const lines: string[] = [];
  const j = r.journal;
  if (j?.state === 'pending') {
    lines.push(`Restore journal: an earlier experiment (${who(j)}) changed settings and did not put them back.`);
    for (const s of j.settings)
      lines.push(`  ${s.setting}: now ${s.now ?? 'unknown (cannot be read with this login)'}; restore puts back ${s.before}`);
    for (const f of j.fix) lines.push(`  fix: ${f}`);
    lines.push(`  file: ${j.file}`);
  } else if (j?.state === 'unreadable') {
    lines.push(
      `Restore journal: ${j.file} cannot be read (${j.error}). It records settings an earlier experiment${j.pid !== null ? ` (${who(j)})` : ''} changed on this server, so Spinlock Lab cannot put them back itself.`,
    );
    for (const s of j.settings) lines.push(`  ${s.setting}: now ${s.now ?? 'unknown (cannot be read with this login)'}`);
    lines.push('  By hand, check each and set back what the experiment left changed:');
    for (const f of j.fix) lines.push(`    ${f}`);
  } else if (j?.state === 'live') {
    const changed = knobSettings(j);
    lines.push(
      `Running now: an experiment of ${j.owner ?? `process ${j.pid}`} (${who(j, !!j.owner)}); ` +
        (changed.length
          ? `it changed ${changed.map((s) => `${s.setting} (now ${s.now ?? 'unknown'}; it was ${s.before})`).join(' and ')} and puts ${changed.length > 1 ? 'them' : 'it'} back when it ends.`
          : `a stack capture with ${j.settings.map((s) => s.setting).join(', ')}.`),
    );
    lines.push(`  journal: ${j.file}`);
  }
  if (r.running) lines.push(`Running now: ${r.running}; it changed no server setting.`);
  return lines;
}

/** Why a run now would be refused, for the report's last line; null when nothing stands in its way. */
export function journalBlocker(r: ExperimentsOnServer): string | null {
  const j = r.journal;
  if (j?.state === 'pending') return "an earlier experiment's settings are not put back (spinlab restore)";
  if (j?.state === 'unreadable') return 'the restore journal cannot be read (see above)';
  if ((j?.state === 'live' && knobSettings(j).length) || r.running) return 'an experiment is running (a run waits for it to end)';
  return null;
}
