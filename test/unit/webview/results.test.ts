// The results table: columns from the runs' own top spinlocks and waits, sorting, TSV.
import assert from 'node:assert/strict';
import { runFigures } from '../../../src/shared/analysis';
import { formatCell, nextSort, resultColumns, sortRows, toTsv, type ResultRow } from '../../../src/webview/model/results';
import * as b from '../../helpers/builders';

const rows: ResultRow[] = b.experiment('e', [1, 2, 4, 8], { latency: true }).runs.map((r) => ({ run: r.index, figures: runFigures(r) }));

it('columns: the run, totals, the top spinlocks and waits per row, CPU, latency, status', () => {
  const cols = resultColumns(rows);
  const keys = cols.map((c) => c.key);
  assert.deepEqual(keys.slice(0, 5), ['run', 'threads', 'elapsed', 'rows', 'rowsPerSec']);
  assert.deepEqual(
    keys.filter((k) => k.startsWith('spins:')),
    ['spins:LOGCACHE_ACCESS', 'spins:XDESMGR', 'spins:LOGFLUSHQ'],
  );
  assert.deepEqual(
    keys.filter((k) => k.startsWith('wait:')),
    ['wait:WRITELOG', 'wait:PAGELATCH_EX', 'wait:SOS_SCHEDULER_YIELD'],
  );
  assert.ok(keys.includes('p50') && keys.includes('p99'));
  assert.equal(keys[keys.length - 1], 'status');
  const noLatency = resultColumns(b.experiment('e', [1]).runs.map((r) => ({ run: 0, figures: runFigures(r) })));
  assert.ok(!noLatency.some((c) => c.key === 'p99'), 'no latency columns when no run measured latency');
});

it('sorting: ascending then descending; ties keep run order; nulls last', () => {
  const cols = resultColumns(rows);
  let sort = nextSort(null, 'rowsPerSec');
  assert.deepEqual(sort, { key: 'rowsPerSec', dir: 'ascending' });
  assert.deepEqual(
    sortRows(rows, cols, sort).map((r) => r.figures.threads),
    [1, 2, 4, 8],
  );
  sort = nextSort(sort, 'rowsPerSec');
  assert.deepEqual(
    sortRows(rows, cols, sort).map((r) => r.figures.threads),
    [8, 4, 2, 1],
  );
  assert.deepEqual(nextSort(sort, 'threads'), { key: 'threads', dir: 'ascending' });
  const withNull = [rows[0], { run: 9, figures: { ...rows[1].figures, cpuMsPerRow: null } }, rows[2]];
  for (const dir of ['ascending', 'descending'] as const) {
    assert.equal(sortRows(withNull, cols, { key: 'cpuMsPerRow', dir }).at(-1)?.run, 9, dir);
  }
});

it('TSV: a header line and one line per row, raw numbers, tabs only between cells', () => {
  const cols = resultColumns(rows);
  const tsv = toTsv(cols, rows);
  const lines = tsv.trimEnd().split('\n');
  assert.equal(lines.length, 5);
  assert.ok(lines.every((l) => l.split('\t').length === cols.length));
  assert.equal(lines[1].split('\t')[1], '1');
  assert.match(lines[4].split('\t')[3], /^\d+$/, 'rows without grouping');
  assert.equal(formatCell(1234567), '1,234,567');
  assert.equal(formatCell(null), '-', 'a figure with no sample (a latency of a run with no call) is a dash, as in the CLI table');
});
