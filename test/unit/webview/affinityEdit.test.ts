// Editing an affinity spec by clicking CPUs and nodes of the topology map.
import assert from 'node:assert/strict';
import { selectionOf, specFor, toggleCpu, toggleNode } from '../../../src/webview/model/affinityEdit';
import * as b from '../../helpers/builders';

const t = b.topology(); // 2 nodes x 8 CPUs, 2 threads per core

it('unchanged (empty) selects the CPUs online now', () => {
  const s = selectionOf('', b.topology({ offline: [14, 15] }));
  assert.equal(s.cpus.size, 14);
  assert.equal(s.error, null);
});

it('clicking a CPU removes it from the current set, and adds it back', () => {
  const one = toggleCpu('', 3, t);
  assert.equal(one, 'cpu:0-2,4-15');
  assert.equal(toggleCpu(one, 3, t), 'numa:0-1');
});

it('whole nodes are written as numa:, anything else as cpu:', () => {
  assert.equal(specFor([8, 9, 10, 11, 12, 13, 14, 15], t), 'numa:1');
  assert.equal(specFor([0, 1, 2], t), 'cpu:0-2');
  assert.equal(specFor([], t), '');
});

it('clicking a node takes all of it out, or puts all of it in', () => {
  assert.equal(toggleNode('', 0, t), 'numa:1');
  assert.equal(toggleNode('numa:1', 0, t), 'numa:0-1');
  assert.equal(toggleNode('cpu:0,8', 1, t), 'cpu:0,8-15');
  assert.equal(toggleNode('numa:1', 1, t), 'numa:1', 'the last CPUs are never all taken out');
});

it('shortcut specs select what the shared parser resolves', () => {
  assert.deepEqual(
    [...selectionOf('exclude-core0', t).cpus].sort((x, y) => x - y),
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  );
  assert.deepEqual(
    [...selectionOf('numa:1-first-core', t).cpus].sort((x, y) => x - y),
    [10, 11, 12, 13, 14, 15],
  );
  assert.equal(selectionOf('auto', t).cpus.size, 16);
  const bad = selectionOf('numa:4', t);
  assert.match(bad.error ?? '', /NUMA node 4 does not exist/);
  assert.equal(toggleCpu('numa:4', 0, t), 'cpu:1-15', 'a click on an invalid spec starts from the CPUs online now');
});

it('the last CPU cannot be clicked away', () => {
  assert.equal(toggleCpu('cpu:5', 5, t), 'cpu:5');
});
