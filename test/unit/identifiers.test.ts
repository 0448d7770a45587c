import assert from 'node:assert/strict';
import fc from 'fast-check';
import { databaseNameProblem, IdentifierError, quoteName, validateDatabaseName } from '../../src/engine/identifiers';

it('quoteName brackets and doubles ]', () => {
  assert.equal(quoteName('SpinlockLab'), '[SpinlockLab]');
  assert.equal(quoteName('a]b'), '[a]]b]');
  assert.equal(quoteName('x[y'), '[x[y]');
  assert.equal(quoteName("'; DROP DATABASE x --"), "['; DROP DATABASE x --]");
  assert.equal(quoteName('x'.repeat(128)).length, 130);
});

it('quoteName rejects what SQL Server would', () => {
  assert.throws(
    () => quoteName(''),
    (e: Error) => e instanceof IdentifierError && /empty/.test(e.message),
  );
  assert.throws(() => quoteName('a\0b'), /NUL/);
  assert.throws(() => quoteName('x'.repeat(129)), /129 characters long; SQL Server allows at most 128/);
});

it('property: quoted names round-trip and never close early', () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1, maxLength: 128 }).filter((s) => !s.includes('\0')),
      (name) => {
        const q = quoteName(name);
        assert.ok(q.startsWith('[') && q.endsWith(']'));
        const inner = q.slice(1, -1);
        // Every ] inside comes in pairs, so the identifier ends only at the last character.
        assert.equal(inner.replace(/]]/g, '').includes(']'), false);
        assert.equal(inner.replace(/]]/g, ']'), name);
      },
    ),
  );
});

it('validateDatabaseName: plain names pass, others say what to change', () => {
  assert.equal(validateDatabaseName('SpinlockLab'), 'SpinlockLab');
  assert.equal(validateDatabaseName('_lab_2'), '_lab_2');
  assert.match(databaseNameProblem('master') ?? '', /system database/);
  assert.match(databaseNameProblem('TempDB') ?? '', /system database/);
  assert.match(databaseNameProblem('my lab') ?? '', /letters, digits and _ only/);
  assert.match(databaseNameProblem('1lab') ?? '', /starting with a letter/);
  assert.match(databaseNameProblem('') ?? '', /empty/);
  assert.throws(() => validateDatabaseName('a]b'), IdentifierError);
});
