// Call-stack captures as saved: an experiment record of schema version 5 may carry captures (per experiment and per run),
// version 4 records upgrade to 5 unchanged otherwise; a capture is added to a finished experiment.json; the notebook
// shows each capture as text and as an SVG bar chart.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXPERIMENT_MIGRATIONS, migrateExperiment, validateExperiment } from '../../src/engine/migrate';
import { EXPERIMENT_SCHEMA_VERSION, type Experiment } from '../../src/shared/experiment';
import type { StackCapture } from '../../src/shared/stacks';
import { buildNotebook } from '../../src/engine/notebook/write';
import { svgStackBars } from '../../src/engine/notebook/stacks';
import { addStacksToExperiment } from '../../src/engine/stacks/save';
import { foldTree, topBuckets } from '../../src/engine/stacks/fold';
import { parseFrame, parseHistogram } from '../../src/engine/stacks/parse';
import { experiment } from '../helpers/builders';

function capture(): StackCapture {
  const slots = parseHistogram(
    '<HistogramTarget truncated="0" buckets="256"><Slot count="30"><value>SIMULATED!sqldk!SpinlockBase::Backoff\nSIMULATED!sqlmin!XDesMgr::GetXdesId\nSIMULATED!&lt;BEGIN TRANSACTION&gt;</value></Slot><Slot count="10"><value>SIMULATED!sqldk!SpinlockBase::Backoff\nSIMULATED!sqlmin!XdesMgr::IsMoreThanOneWriterActive</value></Slot></HistogramTarget>',
  ).slots;
  const t = topBuckets(slots, 5);
  return {
    spinlock: 'XDESMGR',
    mapKey: 77,
    session: 'SpinlockLab_XDESMGR_x',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 5000,
    events: t.events,
    dmvBackoffs: 330,
    simulated: true,
    buckets: t.buckets,
    otherCount: t.otherCount,
    tree: foldTree(slots),
    notes: ['a note'],
  };
}

describe('stack captures saved with an experiment', () => {
  it('schema version 5: a version 4 record upgrades with nothing added; captures validate per experiment and per run', () => {
    assert.ok(EXPERIMENT_SCHEMA_VERSION >= 5);
    const v4 = { ...(experiment('e1', [1]) as unknown as Record<string, unknown>), schemaVersion: 4 };
    const up = EXPERIMENT_MIGRATIONS[4](v4);
    assert.equal(up.schemaVersion, 5);
    assert.equal('stacks' in up, false);
    const e = migrateExperiment(v4, 'v4');
    e.stacks = [capture()];
    e.runs[0].stacks = [capture()];
    assert.equal(validateExperiment(e), null);
    const bad = JSON.parse(JSON.stringify(e)) as Experiment;
    bad.stacks![0].session = 'someone_elses';
    assert.match(validateExperiment(bad) ?? '', /pattern/);
  });

  it('is added to a finished experiment.json, and refused while the experiment still runs', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-stacks-save-'));
    const e = experiment('e2', [1, 2]);
    fs.writeFileSync(path.join(dir, 'experiment.json'), JSON.stringify(e));
    addStacksToExperiment(dir, capture());
    addStacksToExperiment(dir, capture(), 1);
    const back = migrateExperiment(JSON.parse(fs.readFileSync(path.join(dir, 'experiment.json'), 'utf8')), 'saved');
    assert.equal(back.stacks?.length, 1);
    assert.equal(back.runs.find((r) => r.index === 1)?.stacks?.length, 1);
    assert.throws(
      () => addStacksToExperiment(dir, capture(), 9),
      /no run 10 \(its runs, numbered from 1: 1, 2\)/,
      'index 9 is run 10 as shown',
    );
    fs.writeFileSync(path.join(dir, 'experiment.json'), JSON.stringify({ ...e, status: 'running' }));
    assert.throws(() => addStacksToExperiment(dir, capture()), /still running/);
  });

  it('the notebook has a call-stacks section: the top stacks as text and an SVG bar chart output', () => {
    const e = experiment('e3', [1]);
    e.stacks = [capture()];
    const nb = buildNotebook([e]);
    const mdCells = nb.cells.filter((c) => c.cell_type === 'markdown').map((c) => c.source.join(''));
    assert.ok(mdCells.some((t) => t.startsWith('## Call stacks behind the backoffs')));
    const section = mdCells.find((t) => t.startsWith('### XDESMGR'))!;
    assert.match(section, /\*\*SIMULATED\.\*\*/);
    assert.match(section, /#1 75\.0% \(30 events\)\n {4}SIMULATED!sqldk!SpinlockBase::Backoff/);
    const chart = nb.cells.find(
      (c) => c.cell_type === 'code' && (c.metadata as { spinlab?: { role?: string } }).spinlab?.role === 'stacks',
    );
    const data = (chart as { outputs: { data: Record<string, string[]> }[] }).outputs[0].data;
    const out = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.join('')]));
    assert.match(out['image/svg+xml'], /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(out['image/svg+xml'], /XDesMgr::GetXdesId/);
    assert.match(out['text/plain'], /XDESMGR: 40 sqlos\.spinlock_backoff events/);
    // The session's losses beside the counts, plainly when anything was dropped; the record with them validates.
    const lost = {
      ...capture(),
      session: 'SpinlockLab_XDESMGR_lost',
      droppedEvents: 12,
      droppedBuffers: 0,
      sessionOptions: {
        partition: 'NONE' as const,
        maxMemoryKb: 4096,
        retention: 'ALLOW_SINGLE_EVENT_LOSS' as const,
        dispatchLatencyS: 1,
        maxDurationS: 40,
        cpus: 256,
        numaNodes: 8,
        regularBuffers: 3,
        regularBufferBytes: 1_398_101,
      },
    };
    const e5 = experiment('e5', [1]);
    e5.stacks = [lost];
    assert.equal(validateExperiment(JSON.parse(JSON.stringify(e5))), null);
    const lostSection = buildNotebook([e5])
      .cells.map((c) => c.source.join(''))
      .find((t) => t.startsWith('### XDESMGR'))!;
    assert.match(
      lostSection,
      /> \*\*Events were lost:\*\* 12 events and 0 buffers dropped for full buffers \(sys\.dm\\_xe\\_sessions; MEMORY\\_PARTITION\\_MODE = NONE, MAX\\_MEMORY = 4 MB, MAX\\_DURATION = 40 SECONDS\)/,
    );
    assert.doesNotMatch(section, /dropped for full buffers/, 'a capture saved before the counters says nothing of them');
    // Without captures there is no such section.
    assert.ok(!buildNotebook([experiment('e4', [1])]).cells.some((c) => c.source.join('').startsWith('## Call stacks')));
  });

  it('the bar chart names each bar after the first frame outside the backoff machinery and escapes it', () => {
    const c = capture();
    const svg = svgStackBars(c);
    assert.match(svg, />SIMULATED!sqlmin!XDesMgr::GetXdesId</);
    assert.ok(!svg.includes('<BEGIN'), 'markup in frames is escaped');
    c.buckets[0].frames = [parseFrame('SpinlockBase::Backoff'), parseFrame('CMEDCache<T>::Get')];
    assert.match(svgStackBars(c), />CMEDCache&lt;T&gt;::Get</);
    assert.match(svg, /75\.0% \(30\)/);
  });
});
