// The call-stack capture's pure parts: the histogram target's XML, the frames in it, the top N and the folded tree, and the
// SQLCallStackResolver export checked against the input formats its README documents.
import assert from 'node:assert/strict';
import { parseFrame, parseFrames, parseHistogram, HistogramFormatError } from '../../src/engine/stacks/parse';
import { foldTree, topBuckets, treeText } from '../../src/engine/stacks/fold';
import { toCallStackResolverXml } from '../../src/engine/stacks/export';
import { countNotes, FIRING_NOTES } from '../../src/engine/stacks/notes';

// Two stacks as SQL Server 2019 writes them: one frame per line, module+offset.
const MODULE_OFFSET_DOC = `<HistogramTarget truncated="0" buckets="256">
<Slot count="7"><value>sqldk.dll+0x0000000000012A40
sqlmin.dll+0x00000000000F3B10
sqlmin.dll+0x0000000000091C22</value></Slot>
<Slot count="35"><value>sqldk.dll+0x0000000000012A40
sqlmin.dll+0x00000000000F3B10
sqllang.dll+0x0000000000401000</value></Slot>
</HistogramTarget>`;

describe('stack capture: histogram target_data', () => {
  it('reads slots, counts and module+offset frames, largest first', () => {
    const h = parseHistogram(MODULE_OFFSET_DOC);
    assert.equal(h.buckets, 256);
    assert.equal(h.truncated, 0);
    assert.deepEqual(
      h.slots.map((s) => s.count),
      [35, 7],
    );
    assert.deepEqual(h.slots[0].frames[0], {
      raw: 'sqldk.dll+0x0000000000012A40',
      module: 'sqldk.dll',
      offset: '0x0000000000012A40',
      symbol: null,
    });
    assert.equal(h.slots[0].frames.length, 3);
  });

  it('reads bare addresses on one line, names resolved by trace flag 3656, and 2022 <frame> elements in CDATA', () => {
    assert.deepEqual(
      parseFrames('0x00007FFEABD0D919        0x00007FFEABC4D45D').map((f) => f.offset),
      ['0x00007FFEABD0D919', '0x00007FFEABC4D45D'],
    );
    assert.deepEqual(parseFrame('SpinlockBase::Backoff'), {
      raw: 'SpinlockBase::Backoff',
      module: null,
      offset: null,
      symbol: 'SpinlockBase::Backoff',
    });
    assert.equal(parseFrame('SIMULATED!sqlmin!XDesMgr::GetXdesId').module, 'SIMULATED!sqlmin');
    const doc =
      '<HistogramTarget truncated="0" buckets="256"><Slot count="5"><value><![CDATA[<frame id="00" pdb="SqlDK.pdb" age="2" guid="6a19" module="sqldk.dll" rva="0x40609" /><frame id="01" module="sqlmin.dll" rva="0x1A2B" />]]></value></Slot></HistogramTarget>';
    const h = parseHistogram(doc);
    assert.deepEqual(
      h.slots[0].frames.map((f) => f.raw),
      ['sqldk.dll+0x40609', 'sqlmin.dll+0x1A2B'],
    );
  });

  it('decodes entities in frames, and takes an empty or missing target as no stacks', () => {
    const h = parseHistogram(
      '<HistogramTarget truncated="0" buckets="16"><Slot count="2"><value>Spinlock&lt;144,1,0&gt;::SpinToAcquireOptimistic</value></Slot></HistogramTarget>',
    );
    assert.equal(h.slots[0].frames[0].symbol, 'Spinlock<144,1,0>::SpinToAcquireOptimistic');
    assert.deepEqual(parseHistogram(null).slots, []);
    assert.deepEqual(parseHistogram('<HistogramTarget truncated="0" buckets="256" />').slots, []);
  });

  it('refuses a document that is not a histogram, is cut short, or has a slot without a count', () => {
    assert.throws(() => parseHistogram('<RingBufferTarget/>'), HistogramFormatError);
    assert.throws(() => parseHistogram(MODULE_OFFSET_DOC.slice(0, -20)), HistogramFormatError);
    assert.throws(
      () => parseHistogram('<HistogramTarget buckets="1"><Slot><value>x</value></Slot></HistogramTarget>'),
      HistogramFormatError,
    );
  });
});

describe('stack capture: top N and the folded tree', () => {
  const slots = parseHistogram(MODULE_OFFSET_DOC).slots;

  it('lists the top N with their share of all events and sums the rest', () => {
    const t = topBuckets(slots, 1);
    assert.equal(t.events, 42);
    assert.equal(t.buckets.length, 1);
    assert.equal(t.buckets[0].count, 35);
    assert.equal(t.buckets[0].share, 35 / 42);
    assert.equal(t.otherCount, 7);
  });

  it('folds stacks from the outermost frame: a shared prefix is one branch with the sum of its stacks', () => {
    const tree = foldTree(slots);
    assert.equal(tree.count, 42);
    assert.deepEqual(
      tree.children.map((c) => [c.frame, c.count]),
      [
        ['sqllang.dll+0x0000000000401000', 35],
        ['sqlmin.dll+0x0000000000091C22', 7],
      ],
    );
    const shared = tree.children[0].children[0];
    assert.deepEqual([shared.frame, shared.count], ['sqlmin.dll+0x00000000000F3B10', 35]);
    // Two outer callers, each a chain down to the same innermost frame: two lines.
    assert.equal(treeText(tree).length, 2);
    assert.match(
      treeText(tree)[0],
      /^ 83\.3% {2}sqllang\.dll\+0x0000000000401000 > sqlmin\.dll\+0x00000000000F3B10 > sqldk\.dll\+0x0000000000012A40$/,
    );
  });
});

// SQLCallStackResolver's README (github.com/microsoft/SQLCallStackResolver, "Usage") lists the inputs it takes; two
// of them are what the export writes:
//   "Individual call stack extracted from XML output from the XEvents DMVs or .XEL files. These represent individual
//    call stack frames in the with `module+offset` notation"
//   "Multiple call stacks in Histogram XML markup (multiple-instance case of above)."
// The histogram markup is the target's own: <HistogramTarget truncated="0" buckets="N"><Slot count="C"><value>...
describe('stack capture: SQLCallStackResolver export', () => {
  const slots = parseHistogram(MODULE_OFFSET_DOC).slots;
  const xml = toCallStackResolverXml(slots, 256);

  it('is Histogram XML markup: one HistogramTarget root with truncated and buckets, one Slot count/value per stack', () => {
    const lines = xml.trimEnd().split('\n');
    assert.match(lines[0], /^<HistogramTarget truncated="0" buckets="256">$/);
    assert.equal(lines[lines.length - 1], '</HistogramTarget>');
    const slotsOut = [...xml.matchAll(/<Slot count="(\d+)"><value>([\s\S]*?)<\/value><\/Slot>/g)];
    assert.deepEqual(
      slotsOut.map((m) => Number(m[1])),
      [35, 7],
    );
    assert.equal((xml.match(/<Slot\b/g) ?? []).length, 2);
  });

  it('keeps each frame in module+offset notation, one per line, exactly as the server wrote it', () => {
    const values = [...xml.matchAll(/<value>([\s\S]*?)<\/value>/g)].map((m) => m[1].split('\n'));
    for (const frames of values) for (const f of frames) assert.match(f, /^[A-Za-z0-9_.]+\.dll\+0x[0-9A-F]+$/);
    assert.deepEqual(
      values[0],
      slots[0].frames.map((f) => f.raw),
    );
  });

  it('escapes markup in frames and reads back to the same stacks and counts', () => {
    const odd = [{ count: 3, frames: [parseFrame('Spinlock<144,1,0>::SpinToAcquireOptimistic'), parseFrame('A&B::C')] }];
    const out = toCallStackResolverXml(odd);
    assert.ok(!/<144/.test(out) && out.includes('&lt;144,1,0&gt;') && out.includes('A&amp;B'));
    const back = parseHistogram(toCallStackResolverXml(slots, 256));
    assert.deepEqual(
      back.slots.map((s) => [s.count, s.frames.map((f) => f.raw)]),
      slots.map((s) => [s.count, s.frames.map((f) => f.raw)]),
    );
  });
});

describe('stack capture: what the user is told', () => {
  it('cites its sources for when the event fires, and compares the counts it saw', () => {
    assert.ok(FIRING_NOTES.some((n) => /every eighth backoff/.test(n) && /Ignacio Alonso/.test(n)));
    assert.ok(FIRING_NOTES.some((n) => /spinlock_backoff_warning/.test(n) && /Bob Dorr/.test(n)));
    assert.match(countNotes('XDESMGR', 0, 120, 5000, false)[0], /120 backoffs .* but no sqlos\.spinlock_backoff event fired/);
    assert.match(countNotes('XDESMGR', 0, 0, 5000, false)[0], /No backoffs/);
    assert.match(countNotes('XDESMGR', 10, 85, 5000, true)[0], /^SIMULATED/);
    assert.match(countNotes('XDESMGR', 10, 85, 5000, false)[0], /10 events against 85 DMV backoffs .*8\.5 backoffs per event/);
  });
});
