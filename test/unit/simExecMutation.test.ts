// Logic mutants of the sql/ files the simulator executes (tools/sim/model/exec/files.ts): each WHERE/ON comparison
// flipped, each WHERE/ON conjunct removed, each join key swapped for another column of the same type, each ORDER BY
// reversed. Since no handler knows what these files mean, a mutant is caught when running it against the model
// answers differently from the file as written (rows, columns or errors). Prints the counts and the survivors.
import assert from 'node:assert/strict';
import { loadSqlFile } from '../../src/db/sqlFiles';
import { ManualClock } from '../../tools/sim/model/clock';
import { executeBatch } from '../../tools/sim/model/exec/batch';
import { EXECUTED_FILES } from '../../tools/sim/model/exec/files';
import { ModelHandler } from '../../tools/sim/model/handler';
import { SimModel } from '../../tools/sim/model/instance';
import { findView } from '../../tools/sim/model/select';
import type { RpcParam, SessionContext } from '../../tools/sim/tds/contract';

const XE = (name: string) =>
  `CREATE EVENT SESSION [${name}] ON SERVER ADD EVENT sqlos.spinlock_backoff ADD TARGET package0.ring_buffer WITH (MAX_MEMORY = 4096 KB);`;

/** A model where each predicate of the files has rows on both sides: offline CPUs, event sessions ours and not. */
async function answer(file: string, batch: string): Promise<string> {
  const model = new SimModel({ password: 'pw', clock: new ManualClock(), seed: 7 });
  const h = new ModelHandler(model);
  const s: SessionContext = { spid: 51, login: 'sa', appName: 't', hostName: 'h', encrypted: false, database: 'master', state: new Map() };
  model.sessionStarted(51, 'sa');
  const sig = new AbortController().signal;
  const nv = (name: string, value: string): RpcParam => ({ name, sqlType: { type: 'nvarchar', length: 4000 }, value, output: false });
  await h.rpc(
    s,
    'sp_executesql',
    [nv('@stmt', loadSqlFile('knobs/affinity-cpu').batches[0]), nv('@params', '@cpu_ranges nvarchar(4000)'), nv('@cpu_ranges', '2 TO 11')],
    sig,
  );
  // Ours by one pattern (1), by the other (2), neither (3): a flipped LIKE in an OR changes every count.
  for (const n of ['SpinlockLab_a', 'spinlab_b', 'spinlab_c', 'other_d', 'other_e', 'other_f']) {
    await h.sqlBatch(s, XE(n), sig);
    await h.sqlBatch(s, `ALTER EVENT SESSION [${n}] ON SERVER STATE = START;`, sig);
  }
  // A mutant is no longer the product's text, so it goes to the executor directly, as the file itself does.
  const params = new Map<string, string>(
    loadSqlFile(file).parameters
      ? [
          ['@db', 'master'],
          ['@ids', ',51,'],
        ]
      : [],
  );
  const items = executeBatch({ model, session: s, params, signal: sig, text: batch });
  return JSON.stringify(items, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

const FLIP: Record<string, string> = { '=': '<>', '<>': '=', '<': '>=', '>=': '<', '>': '<=', '<=': '>' };
const codeOnly = (t: string) => t.replace(/--[^\n]*|N?'(?:[^']|'')*'/g, (m) => m.replace(/[^\n]/g, ' '));

/** The mutants of one batch: [what, text]. */
function mutants(batch: string): [string, string][] {
  const code = codeOnly(batch);
  const out: [string, string][] = [];
  const at = (i: number, len: number, by: string) => batch.slice(0, i) + by + batch.slice(i + len);
  // 1. Each comparison flipped, each LIKE negated (only after WHERE/ON/AND/OR, i.e. predicates).
  for (const m of code.matchAll(/(?<=\b(?:WHERE|ON|AND|OR)\s+[\w.@()]+\s*)(<>|<=|>=|=|<|>)(?=\s)/gi))
    out.push([`${m[0]} -> ${FLIP[m[0]]} at ${m.index}`, at(m.index!, m[0].length, FLIP[m[0]])]);
  for (const m of code.matchAll(/\bNOT LIKE\b|(?<!NOT )\bLIKE\b/gi))
    out.push([
      `${m[0]} -> ${/NOT/i.test(m[0]) ? 'LIKE' : 'NOT LIKE'} at ${m.index}`,
      at(m.index!, m[0].length, /NOT/i.test(m[0]) ? 'LIKE' : 'NOT LIKE'),
    ]);
  // 2. Each conjunct of a WHERE/ON removed (the first by its successor, the others with their AND).
  for (const m of code.matchAll(/\b(WHERE|ON)\s+([\s\S]*?)(?=\bORDER\b|\bGROUP\b|\bLEFT\b|\bINNER\b|\bJOIN\b|\)\s*AS\b|;|$)/gi)) {
    const parts = m[2].split(/\bAND\b/i);
    if (parts.length < 2) {
      if (/^ON$/i.test(m[1])) continue; // a join without its ON does not compile: the grammar's business
      out.push([`${m[1]} ${m[2].trim()} removed`, at(m.index!, m[0].length, ' ')]);
      continue;
    }
    let off = m.index! + m[0].indexOf(m[2]);
    parts.forEach((p, k) => {
      const len = p.length + (k < parts.length - 1 ? 3 : 0);
      const start = k === parts.length - 1 ? off - 3 : off;
      out.push([`${m[1]} conjunct '${p.trim()}' removed`, at(start, k === parts.length - 1 ? p.length + 3 : len, ' ')]);
      off += p.length + 3;
    });
  }
  // 3. Each join key swapped for another column of the same type in the same view.
  for (const m of code.matchAll(/\bJOIN\s+(sys\.\w+)\s+AS\s+(\w+)\s+ON\s+[\s\S]*?\b\2\.(\w+)/gi)) {
    const v = findView(m[1]);
    if (!v) continue;
    const cols = v.columns({ model: new SimModel({ password: 'pw', clock: new ManualClock() }), session: {} as SessionContext });
    const key = cols.find((c) => c.name === m[3]);
    const other = cols.find((c) => c.name !== m[3] && JSON.stringify(c.sqlType) === JSON.stringify(key?.sqlType));
    if (!other) continue;
    const i = m.index! + m[0].length - m[3].length;
    out.push([`join key ${m[2]}.${m[3]} -> ${m[2]}.${other.name}`, at(i, m[3].length, other.name)]);
  }
  // 4. Each ORDER BY reversed.
  for (const m of code.matchAll(/\bORDER BY\s+[\w.]+(?!\s+DESC)/gi)) out.push([`${m[0]} DESC`, at(m.index!, m[0].length, `${m[0]} DESC`)]);
  return out;
}

/**
 * Mutants that cannot change the answer on SQL Server either: the DAC's scheduler is scheduler_id 1048576 and the
 * hidden ones are above it, so each of these conjuncts is implied by another in the same WHERE.
 */
const EQUIVALENT = [
  "knobs/read: WHERE conjunct 's.scheduler_id < 1048576' removed",
  "knobs/read: WHERE conjunct 's.status LIKE' removed",
  "knobs/read: WHERE conjunct 's.status NOT LIKE' removed",
  "server/topology: WHERE conjunct 's.status NOT LIKE' removed",
];

describe('logic mutants of the executed sql/ files', () => {
  it('change what the simulator answers', async function () {
    this.timeout(300_000);
    let total = 0;
    const missed: string[] = [];
    for (const file of [...EXECUTED_FILES].sort()) {
      for (const batch of loadSqlFile(file).batches) {
        const base = await answer(file, batch);
        assert.doesNotMatch(base, /"kind":"error"/, `${file} as written fails: ${base.slice(0, 400)}`);
        for (const [what, text] of mutants(batch)) {
          total++;
          if ((await answer(file, text)) === base) missed.push(`${file}: ${what}`);
        }
      }
    }
    console.log(`# logic mutants of executed files: ${total - missed.length} of ${total} caught`);
    for (const m of missed) console.log(`#   not caught: ${m}`);
    assert.ok(total >= 15, `too few mutants (${total}): the generator is broken`);
    assert.deepEqual(missed, EQUIVALENT);
  });
});
