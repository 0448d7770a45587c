// Two different stacks must never read the same in the top-stacks summary: a leaf several stacks share is named with
// the first caller that sets each apart.
import assert from 'node:assert/strict';
import * as b from '../helpers/builders';
import { stackNames } from '../../src/shared/stacks';

const bucket = (count: number, ...frames: string[]) => ({ count, share: 0, frames: frames.map(b.stackFrame) });

describe("the names of a capture's top stacks", () => {
  it('names a leaf alone when no other stack ends there', () => {
    assert.deepEqual(stackNames([bucket(5, 'A::spin', 'B::x'), bucket(3, 'C::spin', 'B::x')]), ['A::spin', 'C::spin']);
  });

  it('tells two stacks with the same leaf apart by their first differing caller', () => {
    const names = stackNames([
      bucket(9, 'Spin::Backoff', 'XdesMgr::Begin', 'Txn::Start'),
      bucket(4, 'Spin::Backoff', 'XdesMgr::Begin', 'Txn::Commit'),
      bucket(2, 'Spin::Backoff', 'LogCache::Alloc', 'Txn::Commit'),
    ]);
    assert.equal(new Set(names).size, 3, names.join(' | '));
    assert.equal(names[0], 'Spin::Backoff via Txn::Start (caller 2)');
    assert.equal(names[1], 'Spin::Backoff via Txn::Commit (caller 2)');
    assert.equal(names[2], 'Spin::Backoff via LogCache::Alloc (caller 1)');
  });

  it('names a stack that is a shorter form of another by its depth', () => {
    const names = stackNames([bucket(3, 'Spin::Backoff', 'A::f'), bucket(1, 'Spin::Backoff', 'A::f', 'B::g')]);
    assert.notEqual(names[0], names[1]);
    assert.equal(names[0], 'Spin::Backoff, 2 frames deep');
    assert.equal(names[1], 'Spin::Backoff via B::g (caller 2)');
  });

  it('says a stack with no frame has none', () => {
    assert.deepEqual(stackNames([bucket(1)]), ['(no frame)']);
  });
});
