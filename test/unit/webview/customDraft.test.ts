// The Custom workload form's model: each field validated as typed with a message that says what to write, the
// customRun schema, and a "Load Test This Query" fill applied once (its T-SQL replaces the text and a file).
import assert from 'node:assert/strict';
import { checkCustomForm, CUSTOM_FORM_DEFAULTS, type CustomForm } from '../../../src/shared/customForm';
import { ToHost, type PanelState } from '../../../src/shared/protocol';
import { applyFill, checkDraft, draftOf } from '../../../src/webview/model/customDraft';

const ok: CustomForm = { ...CUSTOM_FORM_DEFAULTS, sql: 'SELECT 1', database: 'Shop' };
const errorsOf = (patch: Partial<CustomForm>) => checkCustomForm({ ...ok, ...patch });

describe('custom workload form', () => {
  it('a filled form has no problems; the defaults lack only the T-SQL and the database', () => {
    assert.deepEqual(errorsOf({}), {});
    assert.deepEqual(Object.keys(checkCustomForm(CUSTOM_FORM_DEFAULTS)).sort(), ['database', 'sql']);
  });

  it('T-SQL that is empty or only comments is refused; a .sql file stands in for it', () => {
    assert.match(errorsOf({ sql: '  -- nothing\n/* here */ ' }).sql, /Type the T-SQL/);
    assert.deepEqual(errorsOf({ sql: '', sqlFile: 'queries/orders.sql' }), {});
    assert.match(errorsOf({ sql: '', sqlFile: 'orders.txt' }).sqlFile, /not a \.sql file/);
  });

  it('the database is required and at most 128 characters', () => {
    assert.match(errorsOf({ database: ' ' }).database, /Name the database/);
    assert.match(errorsOf({ database: 'x'.repeat(129) }).database, /at most 128/);
  });

  it('iterations, duration, threads, think time and query timeout are checked with the shared parsers', () => {
    assert.match(errorsOf({ iterations: '0' }).iterations, /whole number of 1 or more/);
    assert.match(errorsOf({ iterations: '2.5' }).iterations, /whole number/);
    assert.equal(
      errorsOf({ iterations: 'x', stopBy: 'duration' }).iterations,
      undefined,
      'iterations are ignored when stopping by duration',
    );
    assert.match(errorsOf({ stopBy: 'duration', duration: '30' }).duration, /add a unit/);
    assert.match(errorsOf({ threads: '4-2' }).threads, /runs backwards/);
    assert.deepEqual(errorsOf({ thinkTime: '' }), {}, 'an empty think time means none');
    assert.match(errorsOf({ thinkTime: 'soon' }).thinkTime, /not a duration/);
    assert.deepEqual(errorsOf({ queryTimeout: '' }), {});
    assert.match(errorsOf({ queryTimeout: '0s' }).queryTimeout, /zero/);
  });

  it('a parameter source needs its CSV path or query', () => {
    assert.match(errorsOf({ paramsSource: 'csv', paramsCsv: 'p.txt' }).paramsCsv, /\.csv file/);
    assert.deepEqual(errorsOf({ paramsSource: 'csv', paramsCsv: 'p.csv' }), {});
    assert.match(errorsOf({ paramsSource: 'query' }).paramsQuery, /Type the query/);
  });

  it('customRun accepts the form and refuses an unknown parameter source', () => {
    assert.ok(ToHost.customRun.schema.safeParse({ form: ok }).success);
    assert.ok(!ToHost.customRun.schema.safeParse({ form: { ...ok, paramsSource: 'json' } }).success);
  });

  it("row order, row scope and stop-on-error: defaults as the CLI's, only the offered values accepted", () => {
    assert.deepEqual(
      [ok.paramsOrder, ok.paramsScope, ok.stopOnError],
      ['round-robin', 'session', false],
      'as --params-order/--params-scope default',
    );
    assert.deepEqual(
      errorsOf({ paramsSource: 'csv', paramsCsv: 'p.csv', paramsOrder: 'random', paramsScope: 'shared', stopOnError: true }),
      {},
    );
    assert.match(errorsOf({ paramsOrder: 'sorted' as CustomForm['paramsOrder'] }).paramsOrder, /round robin or random/);
    assert.match(errorsOf({ paramsScope: 'global' as CustomForm['paramsScope'] }).paramsScope, /per session or shared/);
    const formOf = (r: { data?: unknown }) => (r.data as { form: CustomForm }).form;
    const parsed = ToHost.customRun.schema.safeParse({ form: { ...ok, paramsOrder: 'random', paramsScope: 'shared', stopOnError: true } });
    assert.ok(parsed.success);
    assert.deepEqual([formOf(parsed).paramsOrder, formOf(parsed).paramsScope, formOf(parsed).stopOnError], ['random', 'shared', true]);
    assert.ok(!ToHost.customRun.schema.safeParse({ form: { ...ok, paramsOrder: 'sorted' } }).success);
    assert.ok(!ToHost.customRun.schema.safeParse({ form: { ...ok, stopOnError: 'yes' } }).success);
    // A sender from before these fields (a saved draft, an older webview) gets the defaults.
    const older: Partial<CustomForm> = { ...ok };
    delete older.paramsOrder;
    delete older.paramsScope;
    delete older.stopOnError;
    const old = ToHost.customRun.schema.safeParse({ form: older });
    assert.ok(old.success);
    assert.deepEqual([formOf(old).paramsOrder, formOf(old).paramsScope, formOf(old).stopOnError], ['round-robin', 'session', false]);
  });

  it('a fill is applied once: its T-SQL replaces the text and a file, the database defaults to master (as --sql)', () => {
    const owner = {};
    const d = draftOf(owner);
    d.form.sqlFile = 'old.sql';
    const state = { customFill: { sql: 'SELECT 2', source: 'a.sql (selection)', seq: 1 } } as unknown as PanelState;
    assert.equal(applyFill(d, state, 'master'), true);
    assert.equal(d.form.sql, 'SELECT 2');
    assert.equal(d.form.sqlFile, '');
    assert.equal(d.form.database, 'master');
    assert.equal(d.source, 'a.sql (selection)');
    assert.ok(checkDraft(d).valid);
    d.form.sql = 'SELECT 3 -- edited';
    assert.equal(applyFill(d, state, 'master'), false, 'the same fill again leaves the edit alone');
    assert.equal(draftOf(owner).form.sql, 'SELECT 3 -- edited');
  });
});
