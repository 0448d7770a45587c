// The one error family: every error class in src/ is a SpinlabError with a category, every category has its own exit
// code (and a row in the README's table), driver errors are classified by their numbers and codes, and the panel
// shapes a failure by its category.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommanderError } from 'commander';
import { ERROR_CATEGORIES, SpinlabError, categoryOf, type ErrorCategory } from '../../src/shared/spinlabError';
import { EXIT, EXIT_FOR_CATEGORY, exitForError } from '../../src/cli/exitCodes';
import { DbError } from '../../src/db/dbError';
import { LeanUnsupported } from '../../src/db/lean/rowSkipper';
import { driverErrorCategory } from '../../src/db/connectErrors';
import { ParamError } from '../../src/shared/params';
import { AffinityError } from '../../src/shared/affinity';
import { GateError } from '../../src/shared/gates';
import { WatchWindowError } from '../../src/engine/watch/windows';
import { MarkError } from '../../src/engine/watch/marks';
import { HistogramFormatError } from '../../src/engine/stacks/parse';
import { ParamsError } from '../../src/engine/custom/params';
import { IdentifierError } from '../../src/engine/identifiers';
import { ConnectionStringError } from '../../src/engine/connection';
import { KeyMismatch } from '../../src/engine/snapshot';
import { NotebookError } from '../../src/engine/migrate';
import { UnreadableJournalError, UnrestoredJournalError } from '../../src/engine/journal';
import { UsageError } from '../../src/cli/commands';
import { RecordNotSavedError } from '../../src/engine/recordSave';
import { TuneRefusal } from '../../src/engine/tune/refusal';
import { experiment } from '../helpers/builders';
import { ProfileError } from '../../src/host/profiles';
import { RunRequestError } from '../../src/host/runRequest';
import { UiFailure, toUiError } from '../../src/host/uiErrors';

const root = path.resolve(__dirname, '..', '..', '..');

/** One of each error class, and the category it must have. A new class fails the first test until it is added here. */
const SAMPLES: Record<string, { make: () => SpinlabError; category: ErrorCategory }> = {
  SpinlabError: { make: () => new SpinlabError('server', 'refused'), category: 'server' },
  ParamError: { make: () => new ParamError(['--set batch_size=0: at least 1']), category: 'user-input' },
  AffinityError: { make: () => new AffinityError('Unknown affinity "x"'), category: 'user-input' },
  GateError: { make: () => new GateError('not a gate'), category: 'user-input' },
  WatchWindowError: { make: () => new WatchWindowError('no tick'), category: 'user-input' },
  MarkError: { make: () => new MarkError('no mark'), category: 'user-input' },
  HistogramFormatError: { make: () => new HistogramFormatError('not a histogram'), category: 'server' },
  ParamsError: { make: () => new ParamsError('no column'), category: 'user-input' },
  IdentifierError: { make: () => new IdentifierError('empty'), category: 'user-input' },
  ConnectionStringError: { make: () => new ConnectionStringError('no server'), category: 'user-input' },
  KeyMismatch: { make: () => new KeyMismatch('two names'), category: 'internal' },
  NotebookError: { make: () => new NotebookError('not ours'), category: 'user-input' },
  TuneRefusal: {
    make: () => new TuneRefusal({ kind: 'p99-needs-client-loop' }, 'p99 needs the client loop', 'add --mode client-loop'),
    category: 'user-input',
  },
  UnrestoredJournalError: { make: () => new UnrestoredJournalError('did not put it back', 'restore'), category: 'server' },
  UnreadableJournalError: { make: () => new UnreadableJournalError('/x/journal/s.json', 'not JSON'), category: 'files' },
  UsageError: { make: () => new UsageError('say what'), category: 'user-input' },
  RecordNotSavedError: {
    make: () => new RecordNotSavedError(experiment('e', [1]), 'experiment.json', 'smaller', new Error('ENOSPC'), false),
    category: 'files',
  },
  DbError: {
    make: () => new DbError('Invalid object name', 208, 'EREQUEST', 1, 16, [{ number: 208, message: 'Invalid object name' }]),
    category: 'server',
  },
  LeanUnsupported: { make: () => new LeanUnsupported('the TDS token 0xac'), category: 'server' },
  ProfileError: { make: () => new ProfileError('no user name'), category: 'connection' },
  RunRequestError: { make: () => new RunRequestError(['Threads: not a number']), category: 'user-input' },
  UiFailure: { make: () => new UiFailure({ message: 'busy' }), category: 'user-input' },
};

function jsFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? jsFiles(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : []));
}

/** Every Error subclass exported from the Node side of src/ (compiled), by name. */
function exportedErrorClasses(): Map<string, new (...args: never[]) => Error> {
  const outSrc = path.join(root, 'out', 'src');
  const found = new Map<string, new (...args: never[]) => Error>();
  for (const file of jsFiles(outSrc)) {
    const rel = path.relative(outSrc, file).split(path.sep).join('/');
    // extension needs vscode; webview and renderer are browser code; the client worker runs only as a worker thread.
    if (/^(extension|webview|renderer)\//.test(rel) || rel === 'engine/workers/clientWorker.js') continue;
    // Loaded by path: the point is to find every module's classes, including ones added after this test.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    for (const value of Object.values(require(file) as Record<string, unknown>)) {
      if (typeof value === 'function' && value.prototype instanceof Error) found.set(value.name, value as new (...args: never[]) => Error);
    }
  }
  return found;
}

describe('the error family', function () {
  this.timeout(60_000);

  it('no class in src/ extends Error directly: each extends SpinlabError', () => {
    const direct: string[] = [];
    const walk = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
    for (const file of walk(path.join(root, 'src'))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/class (\w+) extends Error\b/g)) direct.push(`${path.relative(root, file)}: ${m[1]}`);
    }
    assert.deepEqual(
      direct.filter((d) => !d.endsWith(': SpinlabError')),
      [],
    );
  });

  it("every exported error class is a SpinlabError with its category, and maps to that category's exit code", () => {
    const classes = exportedErrorClasses();
    assert.deepEqual(
      [...classes.keys()].filter((n) => !(n in SAMPLES)).sort(),
      [],
      'an error class without a sample here: add one with its category',
    );
    for (const [name, cls] of classes) {
      const sample = SAMPLES[name];
      const e = sample.make();
      assert.ok(e instanceof cls && e instanceof SpinlabError, `${name} is a SpinlabError`);
      assert.equal(e.category, sample.category, `${name}'s category`);
      assert.equal(categoryOf(e), sample.category);
      assert.equal(e.name, name, "its name is its class, never another class's");
      assert.equal(
        exitForError(e, () => undefined, {}),
        EXIT_FOR_CATEGORY[sample.category],
        `${name} exits with ${sample.category}'s code`,
      );
    }
  });

  it('each category has its own exit code; user input keeps 2 and cancelled 130; the README lists every code', () => {
    const codes = ERROR_CATEGORIES.map((c) => EXIT_FOR_CATEGORY[c]);
    assert.equal(new Set(codes).size, codes.length, 'two categories share a code');
    assert.equal(EXIT_FOR_CATEGORY['user-input'], 2);
    assert.equal(EXIT_FOR_CATEGORY.cancelled, 130);
    assert.equal(EXIT_FOR_CATEGORY.server, EXIT.failed);
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    for (const c of ERROR_CATEGORIES)
      assert.match(readme, new RegExp(`^\\| ${EXIT_FOR_CATEGORY[c]} \\| ${c} \\|`, 'm'), `README row for ${c}`);
  });

  it('anything else is internal: one line, the stack only with SPINLAB_DEBUG', () => {
    let text = '';
    const code = exitForError(
      new TypeError('x is undefined\nsecond line'),
      (s) => {
        text += s;
      },
      {},
    );
    assert.equal(code, EXIT_FOR_CATEGORY.internal);
    assert.equal(text.split('\n').filter(Boolean).length, 1, text);
    assert.match(text, /^spinlab: internal error: x is undefined \(a bug in Spinlock Lab; SPINLAB_DEBUG=1 shows where\)\n$/);
    text = '';
    exitForError(
      new TypeError('x is undefined'),
      (s) => {
        text += s;
      },
      { SPINLAB_DEBUG: '1' },
    );
    assert.match(text, /TypeError: x is undefined\n\s+at /);
    assert.equal(
      exitForError('a string', () => undefined, {}),
      EXIT_FOR_CATEGORY.internal,
    );
  });

  it('a command-line parse error is usage (2); --help and --version are 0', () => {
    assert.equal(
      exitForError(new CommanderError(1, 'commander.unknownOption', 'unknown option'), () => undefined, {}),
      2,
    );
    assert.equal(
      exitForError(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), () => undefined, {}),
      0,
    );
  });
});

describe('driver errors, classified once (src/db/connectErrors.ts)', () => {
  const cases: [string, (number | undefined)[], string | undefined, ErrorCategory][] = [
    ['login failed (18456)', [18456], 'EREQUEST', 'connection'],
    ['a refused login as tedious reports it (ELOGIN, no number)', [undefined], 'ELOGIN', 'connection'],
    ['permission denied on an object (229)', [229], 'EREQUEST', 'permission'],
    ['no permission (297), after Msg 300', [300, 297], 'EREQUEST', 'permission'],
    ['VIEW SERVER STATE denied (300)', [300], 'EREQUEST', 'permission'],
    ['a connection refused at the socket', [undefined], 'ESOCKET', 'connection'],
    ['a connection closed under a request', [undefined], 'ECONNCLOSED', 'connection'],
    ['a request cancelled by Ctrl+C or Stop', [undefined], 'ECANCEL', 'cancelled'],
    ['a request timeout', [undefined], 'ETIMEOUT', 'server'],
    ['a missing object (208)', [208], 'EREQUEST', 'server'],
  ];
  for (const [what, numbers, code, category] of cases) {
    it(`${what}: ${category}`, () => {
      assert.equal(driverErrorCategory(numbers, code), category);
      const [last, ...before] = [...numbers].reverse();
      const e = new DbError('x', last, code, undefined, undefined, [
        ...before.reverse().map((n) => ({ number: n, message: 'y' })),
        { number: last, message: 'x' },
      ]);
      assert.equal(e.category, category);
    });
  }

  it('a failed first connection is a connection error whatever its number', () => {
    assert.equal(
      new DbError('Cannot open database', 4060, 'ELOGIN', 1, 11, [{ number: 4060, message: 'x' }], undefined, 'connection').category,
      'connection',
    );
  });
});

describe('the panel shapes a failure by its category (src/host/uiErrors.ts)', () => {
  it('connection: Connect, with the fix in the form; permission: the GRANT apart from the message', () => {
    const lost = toUiError(new DbError('the connection to the server was lost', undefined, 'ECONNCLOSED', undefined, undefined, []));
    assert.equal(lost.action, 'connect');
    assert.match(lost.fix!, /connection form/);
    const denied = toUiError(
      new SpinlabError('permission', 'The login x lacks VIEW SERVER STATE.', 'USE master; GRANT VIEW SERVER STATE TO [x];'),
    );
    assert.deepEqual(denied, { message: 'The login x lacks VIEW SERVER STATE.', fix: 'USE master; GRANT VIEW SERVER STATE TO [x];' });
  });

  it('an unrestored journal offers Restore; several problems come as a list; anything else is its message alone', () => {
    assert.equal(toUiError(new UnrestoredJournalError('did not put it back', 'run spinlab restore')).action, 'restore');
    assert.match(toUiError(new ParamError(['a', 'b'])).message, /^2 settings need fixing:\n- a\n- b$/);
    assert.deepEqual(toUiError(new TypeError('boom')), { message: 'boom' });
  });

  it("connecting: a refused login is explained with the form's fix and Connect", () => {
    const ui = toUiError(new DbError("Login failed for user 'sa'.", 18456, 'ELOGIN', 1, 14, [], undefined, 'connection'), {
      connecting: { action: 'Connecting to x', login: 'sa' },
    });
    assert.equal(ui.action, 'connect');
    assert.match(ui.message, /^Connecting to x failed: Login failed/);
    assert.match(ui.fix!, /password in the connection form/);
  });
});
