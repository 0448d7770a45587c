// What `spinlab` prints fits the terminal: every table of the demo's report within COLUMNS (a terminal's own width
// when it is one), its rows whole where only the headers had to wrap.
import assert from 'node:assert/strict';
import { mainCli } from '../helpers/cliInProcess';
import { tmp } from '../helpers/common';

/** The lines of every table in `text`: its header lines, the rule of dashes, and the rows (the demo's start with a digit). */
function tableLines(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (!/^-+( {2}-+)+$/.test(l)) return;
    let j = i + 1;
    while (j < lines.length && /^\d/.test(lines[j])) j++;
    let h = i - 1;
    while (h > 0 && lines[h - 1].trim() !== '' && /^\S+( {2,}\S.*)?$|^ {2,}\S/.test(lines[h - 1]) && / {2}/.test(lines[h - 1])) h--;
    out.push(...lines.slice(h, j));
  });
  return out;
}

describe('tables fitted to the width', function () {
  this.timeout(120_000);

  it('the demo at COLUMNS=80: every table line within 80, the results rows one line each', async () => {
    const r = await mainCli(['demo', '--out', tmp('demo-width')], { COLUMNS: '80' });
    assert.equal(r.code, 0, r.output);
    const lines = tableLines(r.stdout);
    assert.ok(lines.length > 20, r.stdout);
    for (const l of lines) assert.ok(l.length <= 80, `${l.length}: ${l}`);
    assert.match(r.stdout, /^4 +[\d,]+ +[\d,]+ +[\d.]+ +- +- +[\d.]+ +0 +\d+%, \d+%$/m);
  });
});
