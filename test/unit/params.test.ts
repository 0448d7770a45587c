import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  checkParamSpecs,
  coerceParam,
  describeAllowed,
  ParamError,
  type ParamSpec,
  parseDuration,
  parseInteger,
  parseRowCount,
  parseSetArgs,
  parseThreadList,
  resolveParams,
  type ScenarioManifest,
} from '../../src/shared/params';

const specs: ParamSpec[] = [
  { name: 'batch_size', label: 'Rows per transaction', type: 'int', default: 1, min: 1, max: 1000, unit: 'rows', description: '' },
  { name: 'procs', label: 'Procedures', type: 'enum', values: ['native', 'interpreted'], default: 'native', description: '' },
  { name: 'pop', label: 'Pop too', type: 'bool', default: false, description: '' },
];

function problems(f: () => unknown): string[] {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ParamError, String(e));
    return (e as ParamError).problems;
  }
  assert.fail('expected a ParamError');
}

it('defaults, then JSON, then --set', () => {
  assert.deepEqual(resolveParams(specs), { batch_size: 1, procs: 'native', pop: false });
  assert.deepEqual(resolveParams(specs, { json: { batch_size: 5, pop: true } }), { batch_size: 5, procs: 'native', pop: true });
  assert.deepEqual(resolveParams(specs, { json: { batch_size: 5 }, set: ['batch_size=1k', 'procs=Interpreted', 'pop=no'] }), {
    batch_size: 1000,
    procs: 'interpreted',
    pop: false,
  });
});

it('messages name the parameter, what is allowed and what was given; all problems at once', () => {
  const p = problems(() => resolveParams(specs, { set: ['batch_size=0', 'procs=hybrid', 'bogus=1', 'pop=maybe'] }));
  assert.equal(p.length, 4);
  assert.equal(
    p[0],
    'Parameter batch_size (Rows per transaction): 0 is too small; allowed: a whole number from 1 to 1000 (rows). Given: "0".',
  );
  assert.match(p[1], /Parameter procs \(Procedures\): not one of the choices; allowed: one of native, interpreted. Given: "hybrid"/);
  assert.match(p[2], /Unknown parameter bogus \(from --set\); known parameters: batch_size, procs, pop/);
  assert.match(p[3], /allowed: true or false. Given: "maybe"/);
  assert.match(problems(() => resolveParams(specs, { json: { batch_size: 2.5 } }))[0], /not a whole number.*Given: 2.5/);
  assert.match(problems(() => resolveParams(specs, { json: { procs: 3 } }))[0], /not text/);
  assert.match(problems(() => resolveParams(specs, { json: [] as unknown as Record<string, unknown> }))[0], /must be an object/);
  assert.match(problems(() => parseSetArgs(['batch_size']))[0], /is not name=value/);
  assert.match(problems(() => parseSetArgs(['a=1', 'a=2']))[0], /more than once/);
  assert.deepEqual(parseSetArgs(['expr=a=b']), { expr: 'a=b' });
});

it('describeAllowed covers open ranges', () => {
  assert.equal(describeAllowed({ ...specs[0], max: undefined }), 'a whole number of at least 1 (rows)');
  assert.equal(describeAllowed({ ...specs[0], min: undefined, unit: undefined }), 'a whole number of at most 1000');
  assert.equal(coerceParam(specs[2], 1), true);
});

it('integers and row counts', () => {
  assert.equal(parseInteger('1000000'), 1_000_000);
  assert.equal(parseInteger('1_000_000'), 1_000_000);
  assert.equal(parseInteger('1e6'), 1_000_000);
  assert.equal(parseInteger('10k'), 10_000);
  assert.equal(parseInteger('2M'), 2_000_000);
  assert.equal(parseInteger('2m'), 2_000_000);
  assert.equal(parseInteger('1.5M'), 1_500_000);
  assert.equal(parseInteger('-3'), -3);
  assert.throws(() => parseInteger('1.2345k'), /not a whole number/);
  assert.throws(() => parseInteger('ten'), /write e.g. 1000000, 1e6, 10k or 2M/);
  assert.throws(() => parseInteger('1e300'), /too large/);
  assert.equal(parseRowCount('16777216'), 16_777_216);
  assert.throws(() => parseRowCount('0'), /at least 1/);
});

it('durations', () => {
  assert.equal(parseDuration('30s'), 30_000);
  assert.equal(parseDuration('5m'), 300_000);
  assert.equal(parseDuration('250ms'), 250);
  assert.equal(parseDuration('1h'), 3_600_000);
  assert.equal(parseDuration('1.5s'), 1500);
  assert.equal(parseDuration('1m30s'), 90_000);
  assert.equal(parseDuration(' 2M '), 120_000);
  assert.equal(parseDuration('0s', { allowZero: true }), 0);
  assert.throws(() => parseDuration('0s'), /is zero/);
  assert.throws(() => parseDuration('30'), /add a unit/);
  assert.throws(() => parseDuration('30 seconds'), /not a duration/);
  assert.throws(() => parseDuration(''), /not a duration/);
});

it('thread lists', () => {
  assert.deepEqual(parseThreadList('1,2,4,8'), [1, 2, 4, 8]);
  assert.deepEqual(parseThreadList('1-4'), [1, 2, 3, 4]);
  assert.deepEqual(parseThreadList('8, 1-2 ,16'), [8, 1, 2, 16]);
  assert.throws(() => parseThreadList('0'), /0 is outside 1..1024/);
  assert.throws(() => parseThreadList('1025'), /outside/);
  assert.throws(() => parseThreadList('1,2,2'), /2 appears more than once/);
  assert.throws(() => parseThreadList('1-4,3'), /3 appears more than once/);
  assert.throws(() => parseThreadList('4-1'), /runs backwards; write 1-4/);
  assert.throws(() => parseThreadList('1-16:2'), /not a number or range/);
  assert.throws(() => parseThreadList(''), /not a number or range/);
});

it('property: thread lists are positive, bounded and distinct, or rejected', () => {
  fc.assert(
    fc.property(fc.string(), (s) => {
      let list: number[];
      try {
        list = parseThreadList(s);
      } catch (e) {
        assert.match((e as Error).message, /^thread list/);
        return;
      }
      assert.ok(list.length > 0);
      assert.equal(new Set(list).size, list.length);
      assert.ok(list.every((n) => Number.isInteger(n) && n >= 1 && n <= 1024));
    }),
  );
  fc.assert(
    fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 1024 }), { minLength: 1 }), (ns) => {
      assert.deepEqual(parseThreadList(ns.join(',')), ns);
    }),
  );
});

it('property: any --set value for an int parameter is in range or reported with its name', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.integer().map(String), fc.constantFrom('1k', '2M', '1e3', '999')), (v) => {
      try {
        const out = resolveParams(specs, { set: [`batch_size=${v}`] });
        const n = out.batch_size as number;
        assert.ok(Number.isInteger(n) && n >= 1 && n <= 1000);
      } catch (e) {
        assert.ok(e instanceof ParamError);
        assert.match((e as ParamError).problems[0], /^Parameter batch_size \(Rows per transaction\): /);
      }
    }),
  );
});

it('property: durations are whole positive ms for valid text, errors otherwise', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom('ms', 's', 'm', 'h'), (n, unit) => {
      const ms = parseDuration(`${n}${unit}`);
      assert.equal(ms, n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]);
    }),
  );
  fc.assert(
    fc.property(fc.string(), (s) => {
      try {
        const ms = parseDuration(s);
        assert.ok(Number.isSafeInteger(ms) && ms > 0);
      } catch (e) {
        assert.match((e as Error).message, /duration/);
      }
    }),
  );
});

it('the shipped manifests type-check at run time: valid parameter specs and defaults', () => {
  const dir = path.resolve(__dirname, '../../../sql/scenarios');
  const ids = fs.existsSync(dir) ? fs.readdirSync(dir).filter((d) => fs.existsSync(path.join(dir, d, 'manifest.json'))) : [];
  assert.ok(ids.length > 0, `no manifests under ${dir}`);
  for (const id of ids) {
    const m = JSON.parse(fs.readFileSync(path.join(dir, id, 'manifest.json'), 'utf8')) as ScenarioManifest;
    assert.equal(m.id, id);
    assert.deepEqual(checkParamSpecs(m.parameters, id), []);
    assert.ok(m.features.every((f) => f.feature === 'xtp'));
    // Defaults resolve with no input.
    assert.equal(Object.keys(resolveParams(m.parameters)).length, m.parameters.length);
  }
});

it('checkParamSpecs catches broken manifests', () => {
  const bad: ParamSpec[] = [
    { name: 'Bad-Name', label: 'x', type: 'int', default: 5, min: 10, max: 1, description: '' },
    { name: 'e', label: 'e', type: 'enum', default: 'a', description: '' },
    { name: 'e', label: 'e', type: 'enum', values: ['a'], default: 'b', description: '' },
  ];
  const p = checkParamSpecs(bad, 'demo');
  assert.ok(p.some((s) => /lower_snake_case/.test(s)));
  assert.ok(p.some((s) => /min 10 is above max 1/.test(s)));
  assert.ok(p.some((s) => /an enum needs values/.test(s)));
  assert.ok(p.some((s) => /declared twice/.test(s)));
  assert.ok(p.some((s) => /default is not valid/.test(s)));
});
