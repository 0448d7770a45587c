// The Activity Bar's items open the panel on what they name (LabController.reveal, src/host/reveal.ts): a preset,
// the Watch section, a saved experiment. A reveal is posted at once and once more after the webview's next `ready`
// (a panel just created may not listen yet), with the same seq so the webview obeys it once; a preset or an experiment
// that is not there is refused naming it. The tree's commands take an item's id or the item itself.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LabController } from '../../../src/host/labController';
import { treeItemId } from '../../../src/host/labTree';
import type { RevealMessage } from '../../../src/shared/reveal';
import * as b from '../../helpers/builders';
import { fakePorts, tmpDir } from './fakePorts';

function controller() {
  const ports = fakePorts();
  const c = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state') });
  const reveals = (): RevealMessage[] => ports.ofType('reveal').map((m) => m.payload);
  return { ports, c, reveals };
}

it('a preset, the Watch section: posted at once, once more after the next ready, then no more', async () => {
  const { c, reveals } = controller();
  c.reveal({ target: 'preset', id: 'writelog' });
  assert.deepEqual(
    reveals().map((m) => m.reveal),
    [{ target: 'preset', id: 'writelog' }],
  );
  await c.receive({ type: 'ready', payload: {} });
  assert.equal(reveals().length, 2);
  assert.equal(reveals()[1].seq, reveals()[0].seq, 'the same reveal again, so the webview obeys it once');
  await c.receive({ type: 'ready', payload: {} });
  assert.equal(reveals().length, 2, 'a later ready (the panel shown again) does not reveal again');
  c.reveal({ target: 'watch' });
  assert.deepEqual(reveals()[2].reveal, { target: 'watch' });
  assert.notEqual(reveals()[2].seq, reveals()[0].seq);
});

it('a saved experiment is revealed; one that is not there is refused naming it, not blamed on the panel', async () => {
  const { ports, c, reveals } = controller();
  const folder = ports.settingsValue.resultsFolder;
  const e = b.experiment('exp-1', [1, 2]);
  fs.mkdirSync(path.join(folder, e.id), { recursive: true });
  fs.writeFileSync(path.join(folder, e.id, 'experiment.json'), JSON.stringify(e));
  c.reveal({ target: 'experiment', id: 'exp-1' });
  assert.deepEqual(
    reveals().map((m) => m.reveal),
    [{ target: 'experiment', id: 'exp-1' }],
  );

  assert.throws(
    () => c.reveal({ target: 'experiment', id: 'exp-gone' }),
    /The experiment "exp-gone" is not in the results folder .*: it was deleted or moved/,
  );
  assert.throws(() => c.reveal({ target: 'experiment', id: '../etc' }), /"\.\.\/etc" is not an experiment id/);
  fs.mkdirSync(path.join(folder, 'exp-broken'));
  fs.writeFileSync(path.join(folder, 'exp-broken', 'experiment.json'), '{');
  assert.throws(() => c.reveal({ target: 'experiment', id: 'exp-broken' }), /The experiment "exp-broken" cannot be opened/);
  assert.throws(() => c.reveal({ target: 'preset', id: 'no-such-preset' }), /no preset "no-such-preset"/);
  assert.equal(reveals().length, 1, 'nothing revealed for what is not there');
  assert.equal(c.state.lastError, null, 'and the panel is not blamed');
  assert.doesNotMatch(JSON.stringify(ports.posted), /does not accept/);
});

it('nothing is revealed once the panel closed', async () => {
  const { c, reveals } = controller();
  await c.dispose();
  assert.throws(() => c.reveal({ target: 'watch' }), /panel was closed/);
  assert.deepEqual(reveals(), []);
});

it("a tree command takes the item's id (a click) or the item itself (an inline action)", () => {
  assert.equal(treeItemId('exp-1', 'experiment'), 'exp-1');
  assert.equal(treeItemId({ id: 'experiment:exp-1', label: 'disk-insert sweep' }, 'experiment'), 'exp-1');
  assert.equal(treeItemId({ id: 'preset:writelog' }, 'preset'), 'writelog');
  assert.equal(treeItemId({ id: 'connection:sim' }, 'connection'), 'sim');
  assert.equal(treeItemId({ id: 'preset:writelog' }, 'experiment'), null, 'another kind of item');
  assert.equal(treeItemId({ id: 'experiment:' }, 'experiment'), null);
  for (const junk of [undefined, null, 7, {}, { id: 7 }]) assert.equal(treeItemId(junk, 'experiment'), null, JSON.stringify(junk));
});
