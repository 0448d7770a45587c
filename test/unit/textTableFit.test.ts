// Tables fitted to the terminal: a table wider than the width wraps its headers first, then its widest text cells,
// word by word, each row's lines kept together; a table that fits, and text that is no table, stay as they were.
// And a repeated experiment's diagnosis rows say which repetition each is, its identical sentences said once.
import assert from 'node:assert/strict';
import { fitTables, table } from '../../src/engine/textTable';
import { terminalWidth } from '../../src/cli/terminal';
import { presetViews } from '../../src/engine/presetViews';
import { presetReport } from '../../src/engine/presetReport';
import { getPreset } from '../../src/engine/presets';
import { repeatedPresetExperiment, repeatedScenarioExperiment } from '../helpers/repeatedExperiment';
import { resultsReport } from '../../src/engine/report';

const words = (s: string) => s.split(/\s+/).filter((w) => w && !/^-+$/.test(w));

describe('tables fitted to the terminal', () => {
  const verdict =
    'the average WRITELOG wait (0.072 ms) is close to the log write stall (0.057 ms): commits wait for the storage, not for the log writer';
  const post = 'the WRITELOG post: about 15,000/s at its peak (one flush per commit unless commits are grouped or delayed)';
  const wide = table(
    ['arm', 'threads', 'figure', 'verdict', 'WRITELOG post'],
    [
      ['delayed durability DISABLED (every commit waits for its flush)', '16', 'Average WRITELOG wait vs log write stall', verdict, post],
      ['delayed durability FORCED', '16', 'Log flushes', '4,907/s, 33% of the post rate', post],
    ],
  );

  it('a table wider than the width: every line within it, every word kept, rows apart', () => {
    assert.ok(wide.split('\n')[0].length > 300);
    const fitted = fitTables(`Title\n${wide}\n  a sentence after it`, 100);
    for (const line of fitted.split('\n')) assert.ok(line.length <= 100, `${line.length}: ${line}`);
    assert.deepEqual(
      words(fitted)
        .filter((w) => w !== 'Title')
        .sort(),
      words(`${wide}\n  a sentence after it`).sort(),
      'every word kept',
    );
    assert.match(fitted, /^Title\n/);
    assert.match(fitted, /\n {2}a sentence after it$/);
  });

  it('headers wrap before cells: a row whose cells fit stays one line', () => {
    const t = table(
      ['threads', 'rows/s', 'own share of server CPU, waits', 'client CPU µs/row', 'sessions failed'],
      [
        ['1', '12,131', '69%, 93%', '4.8', '0'],
        ['16', '51,197', '87%, 95% (others busy)', '1.5', '0'],
      ],
    );
    const fitted = fitTables(t, 70);
    assert.ok(t.split('\n')[0].length > 70);
    for (const line of fitted.split('\n')) assert.ok(line.length <= 70, line);
    assert.match(fitted, /^16 +51,197 +87%, 95% \(others busy\) +1\.5 +0$/m);
    assert.match(fitted, /^1 +12,131 +69%, 93% +4\.8 +0$/m);
  });

  it('a table that fits and text that is no table are left alone', () => {
    const t = table(['threads', 'rows/s'], [['1', '100']]);
    assert.equal(fitTables(t, 100), t);
    const prose = `${'word '.repeat(40)}\n----\n${'x'.repeat(150)}`;
    assert.equal(fitTables(prose, 100), prose);
    assert.equal(fitTables(wide, Infinity), wide);
  });

  it("the width: the terminal's columns; not a terminal, COLUMNS when set, else whole lines", () => {
    assert.equal(terminalWidth({ isTTY: true, columns: 120 }, {}), 120);
    assert.equal(terminalWidth({ isTTY: false }, { COLUMNS: '90' }), 90);
    assert.equal(terminalWidth({ isTTY: false }, {}), Infinity);
    assert.equal(terminalWidth({ isTTY: true, columns: 0 }, {}), 100);
  });
});

describe("a repeated experiment's diagnosis", () => {
  it('the doing-the-math rows name their repetition; the same sentence for two repetitions is said once', () => {
    const e = repeatedPresetExperiment({ threads: [4], repeat: 2 });
    e.preset = { ...e.preset!, views: ['math', 'writelog'] };
    const views = presetViews(e);
    for (const kind of ['math', 'writelog'] as const) {
      const v = views.find((x) => x.kind === kind)!;
      assert.ok(v.headers.includes('repetition'), `${kind}: ${v.headers.join(', ')}`);
      const keys = v.rows.map(
        (r) => r.slice(0, v.headers.indexOf('repetition') + 1).join('|') + '|' + r[v.headers.indexOf('repetition') + 1],
      );
      assert.equal(new Set(keys).size, keys.length, `${kind}: no two rows alike in their labels`);
    }
    const w = views.find((x) => x.kind === 'writelog')!;
    const post = w.headers.indexOf('WRITELOG post');
    const figure = w.headers.indexOf('figure');
    for (const name of new Set(w.rows.map((r) => r[figure])))
      assert.equal(w.rows.filter((r) => r[figure] === name && r[post] !== '').length, 1, `the post's ${name} said once`);
    assert.equal(new Set(w.lines).size, w.lines.length, `writelog sentences said once each: ${w.lines.join('\n')}`);
    const text = presetReport(e, getPreset('writelog'));
    assert.doesNotMatch(text, /^(.+)\n\1$/m, 'no line printed twice in a row');
  });

  it("the results' cost table names each run's repetition", () => {
    const e = repeatedScenarioExperiment({ threads: [4], repeat: 2 });
    const cost = { ticks: 2, cpuMsPerTick: 5, logicalReadsPerTick: 100, writesPerTick: 3, scheduledMsPerTick: 6, recompilesPerTick: 0 };
    const more = { cpuMsPerSec: 5, serverCpuMsPerTick: 500, batchRequestsPerTick: 3, shareOfServerCpu: 0.01 };
    e.runs = e.runs.map((r) => ({ ...r, monitorCost: { ...cost, ...more } }));
    const text = resultsReport(e);
    const section = text.slice(text.indexOf('What Spinlock Lab cost the server'));
    assert.match(section, /^threads +repetition +CPU ms/m);
    assert.match(section, /^4 +1 +5\.00/m);
    assert.match(section, /^4 +2 +5\.00/m);
  });
});
