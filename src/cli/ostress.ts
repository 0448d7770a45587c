// `spinlab ostress ...`: a pasted ostress (RML Utilities) command line, turned into the equivalent `spinlab run`.
// The common options keep their ostress meaning: -S server, -d database, -U/-P SQL login, -Q query, -i input file(s),
// -n connections, -r iterations per connection (each running the whole input, every batch in order, as ostress does),
// -q quiet, -o output folder, -t query timeout and -l login timeout in seconds, -b stop on error. -E (Windows login of
// the current user) is refused with what to use instead, and every other ostress option by name, never ignored. Where
// spinlab still differs from ostress is said before it runs. Options after `--` (or any starting with --) pass
// straight to `spinlab run` (e.g. --assert "p99<5ms").
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from './commands';

const WITH_VALUE = new Set(['S', 'd', 'U', 'P', 'Q', 'i', 'n', 'r', 'o', 't', 'l']);
const FLAGS = new Set(['E', 'q', 'b']);
/** ostress options we know and do not offer, with what each is, so the refusal can say. */
const KNOWN_UNSUPPORTED: Record<string, string> = {
  m: 'mode (stress or replay of trace files)',
  T: 'trace flags',
  c: 'control file',
  N: 'no pooling',
  M: 'max threads',
  p: 'packet size',
  a: 'application name',
  R: 'replay options',
  x: 'replay settings',
  y: 'replay settings',
  v: 'verbose',
  e: 'error file',
  I: 'input',
  L: 'language id',
  D: 'ODBC data source name',
  f: 'results as XML',
};
export const OSTRESS_SUPPORTED = '-S -d -U -P -Q -i -n -r -q -o -t -l -b';

/** `spinlab ostress --help` (and -?, /?, as ostress takes them): what is taken, what is not, and where it differs. */
export const OSTRESS_HELP = `Usage: spinlab ostress [ostress options] [-- spinlab run options]

Runs a pasted ostress (RML Utilities) command line as the equivalent \`spinlab run\`, printed first.

Taken, with ostress's meaning:
  -S server          host, host,port or host\\instance (a port after a comma, as SQL Server writes it)
  -d database        the database the batches run in (default: the login's, else master)
  -U login -P pwd    SQL Server authentication (the password may come from SPINLAB_PASSWORD instead)
  -Q"batch"          one batch to run
  -i file            a .sql file (GO separates batches) or a wildcard such as *.sql
  -n connections     sessions running at once
  -r iterations      times each session runs its input: every batch of it, in order
  -t seconds         query timeout (0: none)
  -l seconds         login timeout
  -o folder          where the run's record goes (experiment.json, samples.jsonl)
  -q                 quiet (spinlab never prints query results)
  -b                 stop at the first error
  -m stress          accepted (stress is what spinlab does)

Not taken: -E (Windows authentication of the current user, ostress's default: spinlab cannot sign in as you; use
-U and -P, or \`spinlab run -c\` with Integrated Security=true;User ID=DOMAIN\\user;Password=... for NTLM), -m replay,
-c, -T, -M, -p, -a, -N, -R, -x, -y, -v, -e, -I, -L, -D, -f.

Where spinlab differs from ostress:
  - query results are never printed or written (as with -q); -o holds the run's record and the server's samples;
  - spinlab samples the server's spinlocks, waits and latches around the run, and reports calls/s and latency;
  - with several -i files, ostress gives each file its own -n connections; spinlab's -n sessions run all the files'
    batches, one file after the other, in each iteration.

Options after -- (or any starting with --) go to spinlab run, e.g. -- --assert "p99<5ms" --notebook run.ipynb.
`;

/** Arguments that ask for help: ostress's -? and /?, and the usual -h, --help. */
export function asksForHelp(argv: readonly string[]): boolean {
  const before = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  return before.some((a) => ['-?', '/?', '-h', '--help', '/h'].includes(a));
}

export interface OstressCommand {
  /** What to pass to `spinlab run`, as arguments (the password is not among them). */
  runArgs: string[];
  /** The connection string without the password. */
  connection: string;
  password: string | null;
  /** The equivalent command line to print (password never shown). */
  line: string;
  quiet: boolean;
  /** Where this line's run differs from what ostress would do, said before it runs. */
  differences: string[];
}

function expandInput(spec: string): string[] {
  // ostress -i takes a file or a wildcard such as C:\work\*.sql.
  const dir = path.dirname(spec);
  const base = path.basename(spec);
  if (!/[*?]/.test(base)) {
    if (!fs.existsSync(spec)) throw new UsageError(`-i ${spec}: no such file.`);
    return [spec];
  }
  const re = new RegExp(
    `^${base
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  );
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => re.test(f))
        .sort()
        .map((f) => path.join(dir, f))
    : [];
  if (!files.length) throw new UsageError(`-i ${spec}: no file matches.`);
  return files;
}

function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}

export function translateOstress(pasted: string[]): OstressCommand {
  // A whole pasted line starts with the program itself (ostress, ostress.exe, "C:\...\ostress.exe"): not an option.
  const argv = pasted.length && /(^|[\\/])ostress(\.exe)?$/i.test(pasted[0]) ? pasted.slice(1) : pasted;
  if (!argv.length)
    throw new UsageError(
      'Give an ostress command line, e.g. spinlab ostress -Slocalhost,1433 -Usa -Q"SELECT 1" -n4 -r10 (spinlab ostress -? lists the options).',
    );
  const v: Record<string, string[]> = {};
  const flags = new Set<string>();
  const passThrough: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      passThrough.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      passThrough.push(a);
      if (i + 1 < argv.length && !argv[i + 1].startsWith('-')) passThrough.push(argv[++i]);
      continue;
    }
    const m = /^[-/]([A-Za-z])(.*)$/s.exec(a);
    if (!m) throw new UsageError(`'${a}' is not an ostress option (they look like -S, -Q"...", -n4).`);
    const [, letter, attached] = m;
    if (FLAGS.has(letter)) {
      if (attached) throw new UsageError(`-${letter} takes no value (got -${letter}${attached}).`);
      flags.add(letter);
      continue;
    }
    if (!WITH_VALUE.has(letter)) {
      const what = KNOWN_UNSUPPORTED[letter];
      const value = attached || (what && argv[i + 1] !== undefined && !/^[-/]/.test(argv[i + 1]) ? argv[i + 1] : '');
      // Stress is what spinlab does: -m stress says nothing new.
      if (letter === 'm' && value.toLowerCase() === 'stress') {
        if (!attached) i++;
        continue;
      }
      throw new UsageError(
        `ostress option -${letter}${value ? ` ${value}` : ''}${what ? ` (${what})` : ''} is not supported by spinlab ostress; it accepts ${OSTRESS_SUPPORTED}.`,
      );
    }
    const value = attached !== '' ? attached : argv[++i];
    if (value === undefined)
      throw new UsageError(
        `-${letter} needs a value, e.g. -${letter === 'n' || letter === 'r' ? '4' : letter === 'Q' ? '"SELECT 1"' : 'VALUE'}.`,
      );
    (v[letter] ??= []).push(value);
  }
  const one = (k: string) => v[k]?.[v[k].length - 1];
  if (!one('S'))
    throw new UsageError('-S is needed: the server, e.g. -Slocalhost or -S127.0.0.1,1433 (spinlab ostress -? lists the options).');
  const colon = /^((?:tcp:)?[^:,\\[\]]+):(\d+)$/i.exec(one('S')!.trim());
  if (colon) throw new UsageError(`-S${one('S')}: SQL Server writes host,port (a comma), not host:port: write -S${colon[1]},${colon[2]}.`);
  if (flags.has('E')) {
    throw new UsageError(
      '-E (Windows authentication of the current user) is not available from spinlab: it cannot sign in as you. Use -U LOGIN -P PASSWORD, or `spinlab run -c "...;Integrated Security=true;User ID=DOMAIN\\user;Password=..."` for NTLM.',
    );
  }
  if (!one('U'))
    throw new UsageError(
      'Give -U LOGIN (with -P PASSWORD, or SPINLAB_PASSWORD set): without -U, ostress signs in with Windows authentication (-E), which spinlab cannot do.',
    );
  if (!v.Q && !v.i) throw new UsageError('Say what to run: -Q"T-SQL" or -iFILE.sql.');
  for (const k of ['n', 'r']) {
    if (one(k) !== undefined && !(/^\d+$/.test(one(k)!) && Number(one(k)) >= 1))
      throw new UsageError(
        `-${k}${one(k)}: write a whole number of 1 or more (${k === 'n' ? 'connections' : 'iterations per connection'}), e.g. -${k}4.`,
      );
  }
  if (one('t') !== undefined && !/^\d+$/.test(one('t')!))
    throw new UsageError(`-t${one('t')}: the query timeout in seconds, a whole number (e.g. -t30).`);
  if (one('l') !== undefined && !(/^\d+$/.test(one('l')!) && Number(one('l')) > 0))
    throw new UsageError(`-l${one('l')}: the login timeout in seconds, a whole number of 1 or more (e.g. -l30).`);

  // ostress connects without requiring encryption; the login itself is still encrypted by the driver.
  const parts = [
    `Server=${one('S')}`,
    ...(one('d') ? [`Database=${one('d')}`] : []),
    `User ID=${one('U')}`,
    'Encrypt=Optional',
    ...(one('l') ? [`Connect Timeout=${Number(one('l'))}`] : []),
  ];
  const connection = parts.join(';');
  const runArgs = ['-c', connection];
  for (const q of v.Q ?? []) runArgs.push('--sql', q);
  const files = (v.i ?? []).flatMap(expandInput);
  for (const f of files) runArgs.push('--sql-file', f);
  if (one('d')) runArgs.push('--database', one('d')!);
  // An ostress iteration runs its whole input, every batch in order.
  runArgs.push('--threads', one('n') ?? '1', '--iterations', one('r') ?? '1', '--per-iteration', 'all', '--warmup', '0s');
  // -t0 is ostress's "no timeout".
  if (one('t') !== undefined && Number(one('t')) > 0) runArgs.push('--query-timeout', `${Number(one('t'))}s`);
  if (flags.has('b')) runArgs.push('--stop-on-error');
  if (one('o')) runArgs.push('--out', one('o')!);
  runArgs.push(...passThrough);
  const password = one('P') ?? null;
  const line = `spinlab run ${runArgs.map(quote).join(' ')}`;
  const differences = [
    `query results are not ${one('o') ? `written to ${one('o')} (it gets the run's record and samples instead)` : 'printed'}; the server's spinlocks, waits and latches are sampled around the run`,
    ...(files.length > 1
      ? [
          `ostress gives each of the ${files.length} files its own -n${one('n') ?? '1'} connections; here ${Number(one('n') ?? '1') === 1 ? 'the session runs' : `the ${one('n')} sessions run`} every file's batches, one file after the other, in each iteration`,
        ]
      : []),
  ];
  return { runArgs, connection, password, line, quiet: flags.has('q'), differences };
}
