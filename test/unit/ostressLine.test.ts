// A pasted ostress line (issue #45): help is help (--help, -? and /? print it, exit 0, nothing connects), spinlab's
// own help does not list -E as taken, -E and a missing -U say why (ostress's default is Windows authentication), a
// host:port server is told the comma form in ostress's terms, and where spinlab differs from ostress is said first.
import assert from 'node:assert/strict';
import { mainCli } from '../helpers/cliInProcess';
import { translateOstress } from '../../src/cli/ostress';

describe('spinlab ostress: help, -E, and the differences said before running', () => {
  for (const flag of ['--help', '-?', '/?', '-h']) {
    it(`spinlab ostress ${flag}: the help, exit 0 (not "-S is needed", not "not an ostress option")`, async () => {
      const r = await mainCli(['ostress', flag], { SPINLAB_CONNECTION: undefined });
      assert.equal(r.code, 0, r.output);
      assert.match(r.stdout, /^Usage: spinlab ostress/);
      assert.match(r.stdout, /-r iterations +times each session runs its input: every batch of it, in order/);
      assert.match(r.stdout, /Not taken: -E/);
      assert.match(r.stdout, /Where spinlab differs from ostress/);
      assert.doesNotMatch(r.output, /-S is needed|not an ostress option/);
    });
  }

  it('help wins anywhere before --, even in a full line', async () => {
    const r = await mainCli(['ostress', '-Sdb1', '-Usa', '-QSELECT 1', '-?']);
    assert.equal(r.code, 0, r.output);
    assert.match(r.stdout, /^Usage: spinlab ostress/);
  });

  it("spinlab --help does not list -E among ostress's options it takes", async () => {
    const r = await mainCli(['--help']);
    const line = r.stdout.slice(r.stdout.indexOf('ostress [args...]'), r.stdout.indexOf('export [options]'));
    assert.doesNotMatch(line.replace(/not -E/, ''), /-E/);
    assert.match(line, /not -E/);
  });

  it('-E, and no -U (ostress then signs in as the Windows user): both say spinlab cannot, and what to give', () => {
    assert.throws(
      () => translateOstress(['-Sdb1', '-E', '-QSELECT 1']),
      /-E \(Windows authentication of the current user\) is not available from spinlab.*-U LOGIN -P PASSWORD/,
    );
    assert.throws(
      () => translateOstress(['-Sdb1', '-QSELECT 1']),
      /without -U, ostress signs in with Windows authentication \(-E\), which spinlab cannot do/,
    );
  });

  it('-S host:port: the comma form, in -S terms; -l is the login timeout', () => {
    assert.throws(
      () => translateOstress(['-S127.0.0.1:15000', '-Usa', '-QSELECT 1']),
      /-S127\.0\.0\.1:15000: SQL Server writes host,port .* write -S127\.0\.0\.1,15000/,
    );
    assert.throws(() => translateOstress(['-Stcp:db1:1500', '-Usa', '-QSELECT 1']), /write -Stcp:db1,1500/);
    const t = translateOstress(['-Sdb1', '-Usa', '-QSELECT 1', '-l30']);
    assert.match(t.connection, /;Connect Timeout=30$/);
  });

  it('every iteration runs the whole input, and the differences from ostress come with the line', () => {
    const t = translateOstress(['-Sdb1', '-Usa', '-QSELECT 1', '-n2', '-r10', '-oresults']);
    assert.deepEqual(t.runArgs.slice(t.runArgs.indexOf('--iterations'), t.runArgs.indexOf('--iterations') + 4), [
      '--iterations',
      '10',
      '--per-iteration',
      'all',
    ]);
    assert.match(t.differences.join('\n'), /query results are not written to results/);
  });
});

describe('spinlab ostress: a line pasted whole, and counts checked in its own terms', () => {
  it('a leading ostress or ostress.exe (with its path) is the program, not an option', () => {
    for (const prog of ['ostress', 'ostress.exe', 'C:\\Program Files\\Microsoft Corporation\\RMLUtils\\ostress.exe'])
      assert.match(translateOstress([prog, '-Sdb1', '-Usa', '-QSELECT 1']).line, /^spinlab run -c "Server=db1;/);
  });

  it('no arguments: what to give, not "-S is needed"', () => {
    assert.throws(() => translateOstress([]), /Give an ostress command line, e.g\./);
  });

  it('-r0 and -n0 are refused in ostress terms, before the equivalent line is printed', () => {
    assert.throws(
      () => translateOstress(['-Sdb1', '-Usa', '-QSELECT 1', '-r0']),
      /-r0: write a whole number of 1 or more \(iterations per connection\)/,
    );
    assert.throws(() => translateOstress(['-Sdb1', '-Usa', '-QSELECT 1', '-n0']), /-n0: write a whole number of 1 or more \(connections\)/);
  });
});

it('-i of a file that does not exist: said in -i terms, before the equivalent line', () => {
  assert.throws(() => translateOstress(['-Sdb1', '-Usa', '-i/no/such/three.sql']), /-i \/no\/such\/three\.sql: no such file/);
});
