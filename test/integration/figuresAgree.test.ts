// One run, one throughput: `spinlab run --notebook` against the simulator, then the same run's rows/s read from each
// place a user sees it (the terminal's results table, experiment.json, the notebook's results table and its text
// copy, the panel's results table and its A/B comparison, through the view-model functions the panel draws with)
// must be the same string.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { mainCli } from '../helpers/cliInProcess';
import { compareRuns, runFigures } from '../../src/shared/analysis';
import type { Experiment } from '../../src/shared/experiment';
import { figureText } from '../../src/shared/numberText';
import { tailText } from '../../src/shared/sessionSpread';
import { comparedText, experimentRows, formatCell, resultColumns } from '../../src/webview/model/results';
import { tmp } from '../helpers/common';
import { serverWaitsOverOwnSpan } from '../../src/shared/ownWaits';

const cli = mainCli;

/** A column of a plain-text table (report.ts's table()): the header line that names it, then one cell per data line. */
export function column(text: string, firstHeader: string, name: string, lines: number): string[] {
  const all = text.split('\n');
  const at = all.findIndex(
    (l) =>
      l.trim().startsWith(firstHeader) &&
      l
        .split(/\s{2,}/)
        .map((c) => c.trim())
        .includes(name),
  );
  assert.ok(at >= 0, `no table with a '${name}' column in:\n${text}`);
  const i = all[at]
    .trim()
    .split(/\s{2,}/)
    .indexOf(name);
  return all.slice(at + 2, at + 2 + lines).map((l) => l.trim().split(/\s{2,}/)[i]);
}

interface NbCell {
  metadata?: { spinlab?: { role?: string } };
  outputs?: { data?: Record<string, string | string[]> }[];
}
const text = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join('') : (v ?? ''));

it("the same run's rows/s is the same text in the terminal, experiment.json, the notebook and the panel", () =>
  withSim({}, async (sim) => {
    const work = tmp('run');
    const env = {
      SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
      SPINLAB_PASSWORD: SIM_PASSWORD,
      SPINLAB_STATE_DIR: tmp('state'),
    };
    const out = path.join(work, 'out');
    const nbFile = path.join(work, 'experiment.ipynb');
    const run = await cli(
      [
        'run',
        '--scenario',
        'disk-insert',
        '--threads',
        '1,2',
        '--duration',
        '2s',
        '--warmup',
        '0s',
        '--interval',
        '300ms',
        '--set',
        'seed_rows=0',
        '--out',
        out,
        '--notebook',
        nbFile,
      ],
      env,
    );
    assert.equal(run.code, 0, run.output);

    const e = JSON.parse(fs.readFileSync(path.join(out, 'experiment.json'), 'utf8')) as Experiment;
    assert.equal(e.runs.length, 2);
    const stored = e.runs.map((r) => figureText(r.derived.rowsPerSec));
    assert.ok(
      e.runs.every((r) => r.derived.rowsPerSec > 0),
      'both runs wrote rows',
    );

    const terminal = column(run.output, 'threads', 'rows/s', 2);

    const nb = JSON.parse(fs.readFileSync(nbFile, 'utf8')) as { cells: NbCell[] };
    const results = nb.cells.find((c) => c.metadata?.spinlab?.role === 'results');
    assert.ok(results?.outputs?.length, 'the notebook has its results cell');
    const nbTable = column(text(results.outputs[0].data?.['text/plain']), 'run', 'rows/s', 2);
    const nbReport = column(text(results.outputs[1].data?.['text/plain']), 'threads', 'rows/s', 2);
    const nbHtml = [...text(results.outputs[0].data?.['text/html']).matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
      [...m[1].matchAll(/<t[dh]>(.*?)<\/t[dh]>/g)].map((c) => c[1]),
    );
    const htmlAt = nbHtml[0].indexOf('rows/s');
    const nbHtmlCells = nbHtml.slice(1).map((r) => r[htmlAt]);

    // The panel: the results table as the view builds it from the record the host sends, and the A/B comparison.
    const rows = experimentRows(e);
    const col = resultColumns(rows).find((c) => c.key === 'rowsPerSec')!;
    const panel = rows.map((r) => formatCell(col.value(r)));
    const ab = compareRuns(runFigures(e.runs[0]), runFigures(e.runs[1])).figures.find((f) => f.key === 'rowsPerSec')!;
    const panelAb = [comparedText(ab, 'a'), comparedText(ab, 'b')];

    const seen = {
      'experiment.json': stored,
      terminal,
      'notebook table': nbTable,
      'notebook html': nbHtmlCells,
      'notebook report': nbReport,
      panel,
      'panel A/B': panelAb,
    };
    for (const [where, v] of Object.entries(seen))
      assert.deepEqual(v, stored, `${where} shows ${v.join(', ')}; experiment.json holds ${stored.join(', ')}\n${run.output}`);

    // Waits: the server-wide figure is labelled so, and the run's own share (its sessions' WRITELOG, which they wait
    // for at each commit) is beside it, never more than the server's whole.
    assert.match(run.output, /Top waits, server-wide \(every session on the server\)/);
    // Over the same span: the own waits are read around the whole measured phase, settling ticks included.
    for (const r of e.runs) {
      const own = r.sessionWaits?.WRITELOG?.waitMs ?? 0;
      const server = serverWaitsOverOwnSpan(r).waits.WRITELOG?.waitMs;
      assert.ok(own > 0 && own <= server, `run ${r.index + 1}: own WRITELOG ${own} ms, server-wide ${server} ms`);
    }
    const ownSection = run.output.slice(run.output.indexOf("Waits of the workload's own sessions"));
    assert.match(
      ownSection,
      /^Waits of the workload's own sessions \(sys.dm_exec_session_wait_stats\) beside the server-wide waits.*own \/ server-wide$/m,
    );
    const cells = column(ownSection, 'threads', 'WRITELOG', 2);
    e.runs.forEach((r, i) => {
      const span = serverWaitsOverOwnSpan(r);
      const perSec = (ms: number) => figureText(ms / (span.elapsedMs / 1000));
      assert.equal(cells[i], `${perSec(r.sessionWaits!.WRITELOG.waitMs)} / ${perSec(span.waits.WRITELOG.waitMs)}`);
    });
  }));

it('a --rows run of natively compiled procedures: tx/s is n/a (no "% lower"), and its sessions\' tail is reported with both rates', () =>
  withSim({}, async (sim) => {
    const work = tmp('native');
    const env = {
      SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
      SPINLAB_PASSWORD: SIM_PASSWORD,
      SPINLAB_STATE_DIR: tmp('state'),
    };
    const disk = path.join(work, 'disk');
    const native = path.join(work, 'native');
    const nbFile = path.join(work, 'native.ipynb');
    const a = await cli(
      [
        'run',
        '--scenario',
        'disk-insert',
        '--threads',
        '2',
        '--rows',
        '20000',
        '--warmup',
        '0s',
        '--interval',
        '250ms',
        '--set',
        'seed_rows=0',
        '--out',
        disk,
      ],
      env,
    );
    assert.equal(a.code, 0, a.output);
    const b = await cli(
      [
        'run',
        '--scenario',
        'inmem-insert',
        '--threads',
        '2',
        '--rows',
        '20000',
        '--warmup',
        '0s',
        '--interval',
        '250ms',
        '--out',
        native,
        '--notebook',
        nbFile,
      ],
      env,
    );
    assert.equal(b.code, 0, b.output);
    const ea = JSON.parse(fs.readFileSync(path.join(disk, 'experiment.json'), 'utf8')) as Experiment;
    const eb = JSON.parse(fs.readFileSync(path.join(native, 'experiment.json'), 'utf8')) as Experiment;
    assert.equal(eb.runs[0].nativeProcedures, true, 'the record says its transactions ran in natively compiled procedures');
    assert.ok(!ea.runs[0].nativeProcedures);

    // The A/B comparison (the panel's and the notebook's, shared/analysis): n/a with the reason, and no verdict on it.
    const cmp = compareRuns(runFigures(ea.runs[0]), runFigures(eb.runs[0]));
    const tx = cmp.figures.find((f) => f.key === 'transactionsPerSec')!;
    assert.equal(comparedText(tx, 'b'), 'n/a');
    assert.notEqual(comparedText(tx, 'a'), 'n/a');
    assert.equal(tx.changePct, null);
    assert.ok(!cmp.summary.some((s) => /^Transactions\b.*\b(higher|lower)\b/.test(s)), cmp.summary.join('\n'));
    assert.ok(
      cmp.summary.some((s) => /run B: n\/a: natively compiled procedures' transactions are not counted/.test(s)),
      cmp.summary.join('\n'),
    );

    // The tail: both rates and the gap, in the terminal and the notebook's summary, from the record's figures.
    for (const [e, out] of [
      [ea, a.output],
      [eb, b.output],
    ] as const) {
      const s = e.runs[0].sessionSpread;
      assert.ok(s && s.sessions === 2 && s.lastEndedMs >= s.firstEndedMs, JSON.stringify(s));
      const line = `the last of 2 sessions finished ${tailText(s)} after the first; rows/s over the full time ${figureText(e.runs[0].derived.rowsPerSec)}, while all sessions ran ${figureText(s.allRunningRowsPerSec)}`;
      assert.ok(out.includes(line), `${line}\nnot in:\n${out}`);
    }
    const nb = fs.readFileSync(nbFile, 'utf8');
    assert.ok(nb.includes('while all sessions ran'), "the notebook's summary reports the tail");
  }));
