// The "Why is it spinning?" model of the webview: the flame layout of a capture's folded tree (widths proportional to
// counts, children inside their parent, largest first, narrow bars left out), the keyboard moves between bars, which
// spinlocks are offered, and the capture's states as the host's messages arrive.
import assert from 'node:assert/strict';
import * as b from '../../helpers/builders';
import {
  flameLayout,
  flameMove,
  frameText,
  spinlockRows,
  spinlockRowsOfRuns,
  StacksModel,
  type FlameLayout,
} from '../../../src/webview/model/stacks';
import type { StackNode } from '../../../src/shared/stacks';
import type { SpinDelta } from '../../../src/shared/experiment';

const EPS = 1e-9;

function byFrame(l: FlameLayout, frame: string, depth?: number) {
  const bar = l.bars.find((x) => x.frame === frame && (depth === undefined || x.depth === depth));
  assert.ok(bar, `a bar for ${frame}`);
  return bar;
}

describe('the flame layout of a stack capture', () => {
  const capture = b.stackCapture();
  const layout = flameLayout(capture.tree);

  it('gives the root the whole width and each bar a width proportional to its count', () => {
    assert.equal(layout.total, 1000);
    assert.deepEqual([layout.bars[0].x, layout.bars[0].w], [0, 1]);
    for (const bar of layout.bars)
      assert.ok(Math.abs(bar.w - bar.count / layout.total) < EPS, `${bar.frame} at depth ${bar.depth}: ${bar.w} for ${bar.count}`);
    assert.ok(Math.abs(byFrame(layout, 'sqlmin.dll+0x22AA10').w - 0.6) < EPS);
    assert.ok(Math.abs(byFrame(layout, 'sqlmin.dll+0x77BB20').w - 0.3) < EPS);
    assert.ok(Math.abs(byFrame(layout, 'sqlmin.dll+0x1A2B3C', 5).share - 0.6) < EPS);
  });

  it('keeps every child inside its parent, side by side without overlap, largest first', () => {
    for (const parent of layout.bars) {
      const kids = parent.children.map((id) => layout.bars[id]);
      let x = parent.x;
      for (const k of kids) {
        assert.equal(k.depth, parent.depth + 1);
        assert.ok(k.x >= x - EPS, `${k.frame} starts after its left sibling`);
        assert.ok(k.x + k.w <= parent.x + parent.w + EPS, `${k.frame} ends within ${parent.frame}`);
        x = k.x + k.w;
      }
      for (let i = 1; i < kids.length; i++) assert.ok(kids[i - 1].count >= kids[i].count, 'largest first');
    }
    assert.equal(layout.rows, 6, 'the root and five frames');
  });

  it('scales children down when bad data makes them add up to more than their parent', () => {
    const tree: StackNode = {
      frame: 'all',
      count: 10,
      children: [
        {
          frame: 'a',
          count: 10,
          children: [
            { frame: 'b', count: 8, children: [] },
            { frame: 'c', count: 12, children: [] },
          ],
        },
      ],
    };
    const l = flameLayout(tree);
    const a = byFrame(l, 'a');
    const bc = a.children.map((id) => l.bars[id]);
    assert.ok(Math.abs(bc.reduce((s, x) => s + x.w, 0) - a.w) < EPS);
    assert.ok(Math.abs(byFrame(l, 'c').w / byFrame(l, 'b').w - 1.5) < EPS, 'still in proportion to each other');
  });

  it('leaves out bars narrower than the minimum and counts them', () => {
    const tree: StackNode = {
      frame: 'all',
      count: 10_000,
      children: [
        { frame: 'big', count: 9_999, children: [] },
        { frame: 'tiny', count: 1, children: [{ frame: 'tinier', count: 1, children: [] }] },
      ],
    };
    const l = flameLayout(tree, 0.002);
    assert.equal(
      l.bars.some((x) => x.frame === 'tiny'),
      false,
    );
    assert.equal(l.hidden, 2);
  });

  it('draws nothing for a capture in which the event never fired', () => {
    const l = flameLayout({ frame: 'all', count: 0, children: [] });
    assert.deepEqual(l.bars, []);
  });

  it('moves between bars with the arrow keys: Up to the callee, Down to the caller, Left and Right in the row, Home to the root', () => {
    const root = 0;
    const outer = flameMove(layout, root, 'ArrowUp')!;
    assert.equal(layout.bars[outer].frame, 'sqldk.dll+0x004400');
    assert.equal(flameMove(layout, outer, 'ArrowDown'), root);
    assert.equal(flameMove(layout, root, 'ArrowDown'), null);
    const second = byFrame(layout, 'sqllang.dll+0x330001');
    const other = byFrame(layout, 'sqllang.dll+0x440002');
    assert.equal(flameMove(layout, second.id, 'ArrowRight'), other.id);
    assert.equal(flameMove(layout, other.id, 'ArrowLeft'), second.id);
    assert.equal(flameMove(layout, other.id, 'ArrowRight'), null);
    assert.equal(flameMove(layout, other.id, 'Home'), root);
    assert.equal(flameMove(layout, root, 'Enter'), null);
  });
});

describe('the spinlocks offered and the capture states', () => {
  it('offers the spinlocks with the most backoffs first, summed over the ticks, leaving out those that did not move', () => {
    const ticks: { spinlocks: Record<string, SpinDelta> }[] = [
      {
        spinlocks: {
          LOCK_HASH: { spins: 100, backoffs: 5, collisions: 1, sleepTime: 0 },
          XDESMGR: { spins: 900, backoffs: 2, collisions: 1, sleepTime: 0 },
          IDLE: { spins: 0, backoffs: 0, collisions: 0, sleepTime: 0 },
        },
      },
      {
        spinlocks: {
          XDESMGR: { spins: 10, backoffs: 1, collisions: 0, sleepTime: 0 },
          LOCK_HASH: { spins: 1, backoffs: 1, collisions: 0, sleepTime: 0 },
        },
      },
    ];
    assert.deepEqual(spinlockRows(ticks), [
      { name: 'LOCK_HASH', spins: 101, backoffs: 6 },
      { name: 'XDESMGR', spins: 910, backoffs: 3 },
    ]);
    assert.deepEqual(
      spinlockRows(ticks, 1).map((r) => r.name),
      ['LOCK_HASH'],
    );
    assert.deepEqual(
      spinlockRowsOfRuns([{ totals: { spinlocks: ticks[0].spinlocks } }]).map((r) => r.name),
      ['LOCK_HASH', 'XDESMGR'],
    );
  });

  it('prints a frame by name when the server resolved it, else module+offset', () => {
    assert.equal(frameText(b.stackFrame('SpinlockBase::Backoff')), 'SpinlockBase::Backoff');
    assert.equal(frameText(b.stackFrame('sqlmin.dll+0x1A2B3C')), 'sqlmin.dll+0x1A2B3C');
    assert.equal(frameText({ raw: '0x00007FFEABD0D919', module: null, offset: null, symbol: null }), '0x00007FFEABD0D919');
  });

  it('asks first, then runs, then shows the result; an error about another request leaves the running capture alone', () => {
    const m = new StacksModel();
    assert.equal(m.start(), null, 'nothing to start before the question');
    m.ask('LOCK_HASH', 'watch');
    assert.equal(m.phase, 'confirm');
    m.durationMs = 30_000;
    assert.deepEqual(
      m.start(),
      { spinlock: 'LOCK_HASH', durationMs: 30_000, experimentId: null },
      "a watch's capture is kept with no experiment",
    );
    assert.equal(m.phase, 'running');
    m.ask('XDESMGR', 'live');
    assert.equal(m.spinlock, 'LOCK_HASH', 'no second question while one runs');
    m.onError({ spinlock: 'XDESMGR', message: 'A capture of LOCK_HASH is already running: one at a time.' });
    assert.equal(m.phase, 'running');
    m.onProgress({ spinlock: 'LOCK_HASH', elapsedMs: 10_000, durationMs: 30_000 });
    assert.deepEqual(m.progress, { elapsedMs: 10_000, durationMs: 30_000 });
    m.onResult(b.stackCapture());
    assert.equal(m.phase, 'done');
    m.ask('XDESMGR', 'saved');
    m.onResult(b.stackCapture());
    assert.equal(m.phase, 'confirm', 'the same capture sent again (the panel shown again) leaves the question open');
    m.dismiss();
    assert.equal(m.phase, 'done', 'Not now goes back to the last answer');
    m.onError({ spinlock: 'LOCK_HASH', message: 'denied', grant: 'GRANT ALTER ANY EVENT SESSION TO [sa];' });
    assert.equal(m.phase, 'error');
    m.ask('XDESMGR', 'saved', 'exp-6');
    assert.deepEqual(
      m.start(),
      { spinlock: 'XDESMGR', durationMs: 30_000, experimentId: 'exp-6' },
      "a saved experiment's capture is kept with it",
    );
    m.onError({ spinlock: 'XDESMGR', message: 'x' });
    m.ask('XDESMGR', 'live');
    assert.deepEqual(m.start(), { spinlock: 'XDESMGR', durationMs: 30_000 }, 'the live experiment: the host knows which');
  });
});
