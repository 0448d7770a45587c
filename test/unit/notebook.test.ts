// The notebook writer and reader, the SVG charts, the CSV and T-SQL exports: pure parts, no server.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildNotebook, SERIES_MIME, NOTEBOOK_RECORD_VERSION } from '../../src/engine/notebook/write';
import { parseNotebook, NotebookError } from '../../src/engine/notebook/read';
import { csvField, samplesCsv, tsqlBundle } from '../../src/engine/notebook/export';
import { buildReplay, loadCommandLines, quoteName, sqlLiteral } from '../../src/engine/notebook/replay';
import { downsample, escapeXml, niceTicks, svgLineChart } from '../../src/engine/notebook/svgChart';
import { lines } from '../../src/engine/notebook/nbformat';
import { checkSeriesPayload } from '../../src/shared/seriesPayload';
import { experiment } from '../helpers/builders';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import type { Experiment } from '../../src/shared/experiment';

const sweep = (): Experiment => {
  const e = experiment('2026-01-01T00-00-00-000Z-disk-insert', [1, 2, 4], { ticks: 12 });
  e.question = 'Does <batching> | help?';
  e.knobs = {
    before: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [] } },
    applied: { delayedDurability: 'FORCED', affinity: { spec: 'exclude-core0', cpus: [1, 2, 3] } },
    restored: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [] } },
  };
  return e;
};

it('a notebook is nbformat 4.5 with the SQL kernelspec ADS and the MSSQL extension open', () => {
  const nb = buildNotebook([sweep()]);
  assert.equal(nb.nbformat, 4);
  assert.equal(nb.nbformat_minor, 5);
  assert.deepEqual(nb.metadata.kernelspec, { name: 'SQL', display_name: 'SQL', language: 'sql' });
  assert.deepEqual(nb.metadata.language_info, { name: 'sql', version: '' });
  const ids = nb.cells.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, 'cell ids are unique');
  for (const id of ids) assert.match(id, /^[a-zA-Z0-9-_]{1,64}$/);
});

it('the cells come in reading order: title, server, knobs, replay T-SQL, results, charts, summary', () => {
  const nb = buildNotebook([sweep()]);
  const text = nb.cells.map((c) => `${c.cell_type}:${c.source.join('').split('\n')[0]}`);
  const at = (prefix: string) => text.findIndex((t) => t.startsWith(prefix));
  const order = [
    at('markdown:# '),
    at('markdown:## Server'),
    at('markdown:## Knobs'),
    at('markdown:## Replay by hand'),
    at('code:-- Create the lab database'),
    at('markdown:## Results'),
    at('markdown:## Charts'),
    at('markdown:## Summary'),
  ];
  assert.ok(
    order.every((i) => i >= 0),
    `every section is present: ${JSON.stringify(order)}`,
  );
  assert.deepEqual(
    [...order].sort((a, b) => a - b),
    order,
  );
  const title = nb.cells[0].source.join('');
  assert.match(title, /SIMULATED/);
  assert.match(title, /Does \\<batching\\> \\\| help\?/, 'markdown-special characters in user text are escaped');
});

it('results carry HTML and plain-text tables; charts carry SVG, alt text and the series for the renderer', () => {
  const nb = buildNotebook([sweep()]);
  const outputs = nb.cells.flatMap((c) => (c.cell_type === 'code' ? c.outputs : []));
  const table = outputs.find((o) => 'text/html' in o.data)!;
  const html = (table.data['text/html'] as string[]).join('');
  assert.match(html, /<table>/);
  assert.equal((html.match(/<tr>/g) ?? []).length, 1 + 3, 'a header row and one row per run');
  const charts = outputs.filter((o) => 'image/svg+xml' in o.data);
  assert.ok(charts.length >= 6, `throughput, spinlocks, waits, latches or log, cpu and scaling charts (got ${charts.length})`);
  for (const c of charts) {
    assert.match((c.data['image/svg+xml'] as string[]).join(''), /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.ok((c.data['text/plain'] as string[]).join('').length > 5);
    const series = c.data[SERIES_MIME] as { series: { points: unknown[] }[] };
    assert.ok(series.series.length > 0 && series.series.some((s) => s.points.length > 0));
  }
  assert.ok(
    charts.some((c) => /Scaling: throughput/.test(JSON.stringify(c.data['text/plain']))),
    'a sweep gets its scaling curve',
  );
});

it('the summary is computed from the numbers, and a re-run is compared with the original', () => {
  const original = sweep();
  const rerun = experiment('2026-02-01T00-00-00-000Z-disk-insert', [1, 2, 4], { ticks: 12 });
  rerun.server = { ...rerun.server, serverName: 'OTHER' };
  rerun.runs = rerun.runs.map((r) => ({
    ...r,
    derived: { ...r.derived, rowsPerSec: r.derived.rowsPerSec * 2 },
    totals: { ...r.totals, rows: r.totals.rows * 2 },
    rows: r.rows * 2,
  }));
  const nb = buildNotebook([original, rerun]);
  const summary = nb.cells.find((c) => c.source.join('').startsWith('## Summary'))!.source.join('');
  assert.match(summary, /Throughput peaks at/);
  assert.match(summary, /re-run on OTHER \(B\): Throughput 2\.0x higher/);
  const record = nb.metadata.spinlab as { version: number; experiments: Experiment[] };
  assert.equal(record.version, NOTEBOOK_RECORD_VERSION);
  assert.deepEqual(
    record.experiments.map((e) => e.id),
    [original.id, rerun.id],
  );
});

it('the same experiment gives the same notebook twice (stable ids, no timestamps added)', () => {
  assert.equal(JSON.stringify(buildNotebook([sweep()])), JSON.stringify(buildNotebook([sweep()])));
});

it('reading back gives the records; every way a file can be wrong gets its own clear error', () => {
  const good = JSON.stringify(buildNotebook([sweep()]));
  assert.equal(parseNotebook(good).record.experiments[0].id, sweep().id);
  const bad = (text: string, pattern: RegExp) =>
    assert.throws(
      () => parseNotebook(text, 'x.ipynb'),
      (e: Error) => e instanceof NotebookError && pattern.test(e.message),
    );
  bad('{not json', /not valid JSON/);
  bad('[]', /not a Jupyter notebook/);
  bad(JSON.stringify({ nbformat: 3, cells: [] }), /not an nbformat 4/);
  bad(JSON.stringify({ nbformat: 4, cells: [], metadata: {} }), /not saved by Spinlock Lab/);
  const nb = JSON.parse(good);
  nb.metadata.spinlab.version = 99;
  bad(JSON.stringify(nb), /newer Spinlock Lab/);
  const tampered = JSON.parse(good);
  tampered.metadata.spinlab.experiments[0].runs[0].threads = 'DROP TABLE x';
  bad(JSON.stringify(tampered), /not valid/);
  const future = JSON.parse(good);
  future.metadata.spinlab.experiments[0].schemaVersion = 7;
  bad(JSON.stringify(future), /version 7, newer/);
  const empty = JSON.parse(good);
  empty.metadata.spinlab.experiments = [];
  bad(JSON.stringify(empty), /holds no experiment/);
});

it('any mangled notebook text gives a NotebookError, never another exception', () => {
  const good = JSON.stringify(buildNotebook([experiment('e1', [1], { ticks: 2 })]));
  fc.assert(
    fc.property(fc.nat(good.length - 1), fc.string({ maxLength: 8 }), (at, junk) => {
      const text = good.slice(0, at) + junk + good.slice(at + junk.length);
      try {
        parseNotebook(text);
      } catch (e) {
        return e instanceof NotebookError;
      }
      return true;
    }),
    { numRuns: 200 },
  );
});

it('replay T-SQL draws a key block only for a workload procedure that takes a key (the sequence is NO CACHE)', () => {
  const disk = sweep();
  assert.match(buildReplay(disk).workload.sql, /NEXT VALUE FOR dbo\.spinlab_key_block/);
  const ring = sweep();
  ring.scenario = { id: 'ring-buffer', parameters: defaultParameters(getScenario('ring-buffer')) };
  const sql = buildReplay(ring).workload.sql;
  assert.doesNotMatch(sql, /NEXT VALUE FOR|@key_base/);
  assert.match(sql, /EXEC dbo\.spinlab_ring/);
});

it("replay T-SQL declares each file's parameters as literals and quotes the database name", () => {
  const e = sweep();
  e.labDatabase = "Lab]'; DROP DATABASE x; --";
  const r = buildReplay(e);
  const sample = r.sample.sql;
  assert.match(sample, /^USE \[Lab\]\]'; DROP DATABASE x; --\];/);
  assert.match(sample, /DECLARE @db sysname = N'Lab]''; DROP DATABASE x; --',\n\s+@db_physical nvarchar\(128\) = NULL;/);
  assert.equal(r.knobs.length, 2);
  assert.match(r.knobs[0].sql, /@mode nvarchar\(16\) = N'FORCED'/);
  assert.match(r.knobs[1].sql, /@cpu_ranges nvarchar\(4000\) = N'1 TO 3'/);
  assert.match(r.restore.map((s) => s.sql).join('\n'), /N'DISABLED'[\s\S]*AFFINITY CPU = AUTO/);
  assert.match(
    r.workload.sql,
    /EXEC dbo\.spinlab_disk_insert_loop\n {4}@key_base = @key_base,\n {4}@rows = NULL,\n {4}@run_ms = 10000,\n {4}@batch_size = 1;/,
  );
  assert.equal(quoteName('a]b'), '[a]]b]');
  assert.equal(sqlLiteral("o'neil", 'nvarchar(64)'), "N'o''neil'");
  assert.equal(sqlLiteral(7, 'int'), '7');
  assert.throws(() => sqlLiteral('7; DROP', 'int'), /not a whole number/);
});

it('load command lines: the spinlab run line and one ostress line per thread count, no secret in them', () => {
  const c = loadCommandLines(sweep());
  assert.match(
    c.spinlab,
    /^npx spinlab run --scenario disk-insert --threads 1,2,4 --duration 10s .*--delayed-durability forced --affinity exclude-core0/,
  );
  assert.equal(c.ostress.length, 3);
  assert.doesNotMatch(c.spinlab, /--repeat/, 'one run per thread count: no --repeat');
  assert.match(loadCommandLines({ ...sweep(), design: { repeat: 3, order: 'alternating', sequence: [] } }).spinlab, / --repeat 3 /);
  assert.match(c.ostress[2], /-n4 -r1 -q -Q"DECLARE @key_base bigint/);
  assert.match(c.ostress[0], /-P"%SPINLAB_PASSWORD%"/, 'the password is an environment reference');
  const files = tsqlBundle(sweep());
  assert.deepEqual(Object.keys(files), [
    '01-deploy.sql',
    '02-knobs.sql',
    '03-workload.sql',
    '04-sample.sql',
    '05-restore.sql',
    '06-cleanup.sql',
    'load-commands.txt',
  ]);
});

it('CSV: a header and one line per tick; fields quoted and spreadsheet formulas defused', () => {
  const { ticks, deltas } = samplesCsv(sweep());
  assert.equal(ticks.trim().split('\r\n').length, 1 + 3 * 12);
  assert.match(deltas, /^run,threads,t_ms,kind,name/);
  assert.match(deltas, /spinlock,LOGCACHE_ACCESS/);
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvField(-3.5), '-3.5');
  assert.equal(csvField(null), '');
});

it('SVG charts: round ticks, escaped text, long series downsampled with their peaks kept', () => {
  assert.deepEqual(niceTicks(0, 97), [0, 20, 40, 60, 80, 100]);
  assert.deepEqual(niceTicks(5, 5), [5, 5.1, 5.2, 5.3, 5.4, 5.5]);
  const long = Array.from({ length: 10_000 }, (_, i) => [i, i === 5_555 ? 1e6 : i % 7] as [number, number]);
  const d = downsample(long, 600);
  assert.ok(d.length <= 600);
  assert.ok(
    d.some((p) => p[1] === 1e6),
    'the spike survives',
  );
  const svg = svgLineChart(
    [
      {
        name: '<script>',
        points: [
          [0, 1],
          [1, 2],
        ],
      },
    ],
    { title: 'a & b', xLabel: 'x', yLabel: 'y' },
  );
  assert.ok(!svg.includes('<script>'));
  assert.match(svg, /a &amp; b/);
  assert.equal(escapeXml(`<"'&>`), '&lt;&quot;&apos;&amp;&gt;');
  assert.match(svgLineChart([], { title: 't', xLabel: 'x', yLabel: 'y' }), /no data/);
});

it('nbformat line lists: every line but the last ends in a newline', () => {
  assert.deepEqual(lines('a\nb'), ['a\n', 'b']);
  assert.deepEqual(lines('a\n'), ['a\n']);
  assert.deepEqual(lines(''), []);
});

it("every chart payload the writer emits passes the renderer's check; a bad payload is refused with the reason", () => {
  const nb = buildNotebook([sweep()]);
  const payloads = nb.cells
    .flatMap((c) => (c.cell_type === 'code' ? c.outputs : []))
    .map((o) => o.data[SERIES_MIME])
    .filter(Boolean);
  assert.ok(payloads.length >= 6);
  for (const p of payloads) assert.deepEqual(checkSeriesPayload(JSON.parse(JSON.stringify(p))), p);
  assert.throws(() => checkSeriesPayload(null), /not an object/);
  assert.throws(() => checkSeriesPayload({ title: 't', xLabel: 'x', yLabel: 'y', kind: 'pie', series: [] }), /kind/);
  assert.throws(
    () => checkSeriesPayload({ title: 't', xLabel: 'x', yLabel: 'y', kind: 'time', series: [{ name: 'a', points: [[1, 'x']] }] }),
    /point 1 is not a pair/,
  );
  assert.throws(
    () => checkSeriesPayload({ title: 't', xLabel: 'x', yLabel: 'y', kind: 'time', series: Array(65).fill({ name: 'a', points: [] }) }),
    /at most 64/,
  );
});
