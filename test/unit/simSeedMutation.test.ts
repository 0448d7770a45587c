// Logic mutants of the executed files that write the lab's tables (disk-insert/seed, ring-buffer/tables). They return
// no rows, so a mutant is caught when the model's state after running it differs from the file's: the objects, each
// table's columns, keys, row count and the rows the model evaluated, and the errors. Mutants: each comparison flipped,
// TOP removed or changed, each CROSS JOIN dropped, each arithmetic operator changed, the key's sign dropped, each
// bigint narrowed to int, the window's ORDER BY reversed. (simExecMutation.test.ts covers the reading files.)
import assert from 'node:assert/strict';
import type { Value } from '../../tools/sim/tds/contract';
import { labTables, RING, SEED } from '../helpers/simLabTables';

const FLIP: Record<string, string> = { '=': '<>', '<>': '=', '<': '>=', '>=': '<', '>': '<=', '<=': '>' };
const OTHER: Record<string, string> = { '+': '-', '-': '+', '*': '/', '/': '*', '%': '/' };
const codeOnly = (t: string) => t.replace(/--[^\n]*|N?'(?:[^']|'')*'/g, (m) => m.replace(/[^\n]/g, ' '));

function mutants(text: string): [string, string][] {
  const code = codeOnly(text);
  const out: [string, string][] = [];
  const at = (i: number, len: number, by: string) => text.slice(0, i) + by + text.slice(i + len);
  for (const m of code.matchAll(/(?<=\b(?:IF|WHILE|WHERE|ON|AND|OR)\s+[\w.@()]+\s*)(<>|<=|>=|=|<|>)(?=\s)/gi))
    out.push([`${m[0]} -> ${FLIP[m[0]]} at ${m.index}`, at(m.index!, m[0].length, FLIP[m[0]])]);
  for (const m of code.matchAll(/TOP \((@\w+)\) /g)) {
    out.push([`${m[0].trim()} removed`, at(m.index!, m[0].length, '')]);
    out.push([`${m[0].trim()} -> TOP (${m[1]} - 1)`, at(m.index!, m[0].length, `TOP (${m[1]} - 1) `)]);
  }
  for (const m of code.matchAll(/ CROSS JOIN d16 AS \w/g)) out.push([`${m[0].trim()} dropped`, at(m.index!, m[0].length, '')]);
  for (const m of code.matchAll(/(?<=\s)([-+*/%])(?=\s)/g))
    out.push([`${m[0]} -> ${OTHER[m[0]]} at ${m.index}`, at(m.index!, 1, OTHER[m[0]])]);
  for (const m of code.matchAll(/-ROW_NUMBER/g)) out.push(['-ROW_NUMBER() -> ROW_NUMBER()', at(m.index!, 1, '')]);
  for (const m of code.matchAll(/\bbigint\b/g)) out.push([`bigint -> int at ${m.index}`, at(m.index!, 6, 'int')]);
  for (const m of code.matchAll(/ORDER BY \(SELECT NULL\)/g))
    out.push(['ORDER BY (SELECT NULL) DESC', at(m.index!, m[0].length, `${m[0]} DESC`)]);
  return out;
}

/** The lab database's objects after `run`, with each table's data, and the errors: what a mutant must change. */
async function state(run: (x: Awaited<ReturnType<typeof labTables>>) => Promise<number[]>): Promise<string> {
  const x = await labTables();
  const errors = await run(x);
  const objects = [...x.model.database('lab')!.objects.values()].map((o) => [
    o.name,
    o.type,
    o.memoryOptimized,
    o.durability,
    o.meta,
    o.data,
  ]);
  return JSON.stringify({ errors, objects }, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

/** Seed rows past 16^6, so the tally's every CROSS JOIN counts, and counted (a sample of rows evaluated). */
const SEED_ROWS = BigInt(16 ** 6 + 1);
/** The ring's parameter sets: each branch, each bound of each check just inside and just outside. */
const P = { storage: 'disk', durability: 'SCHEMA_AND_DATA', slots: 16 ** 6 + 1, slot_source: 'sequence', sequence_cache: 0 };
const RING_CASES: Record<string, Value>[] = [
  P,
  { ...P, storage: 'memory', durability: 'SCHEMA_ONLY', slots: 16, slot_source: 'identity', sequence_cache: 1_000_000 },
  { ...P, storage: 'memory', slots: 268_435_456, sequence_cache: 5 },
  { ...P, slots: 15 },
  { ...P, slots: 268_435_457 },
  { ...P, sequence_cache: -1 },
  { ...P, sequence_cache: 1_000_001 },
  { ...P, storage: 'tape' },
  { ...P, durability: 'NONE' },
  { ...P, slot_source: 'guid' },
];

/**
 * Mutants that cannot change what SQL Server does either:
 * - ROW_NUMBER() OVER (ORDER BY (SELECT NULL) DESC): a constant has no order to reverse, so the numbering is the
 *   scan's either way;
 * - @buckets bigint -> int: BUCKET_COUNT is at most 2^28 (@slots is checked against 268435456), well inside int.
 */
const EQUIVALENT = [
  'seed: ORDER BY (SELECT NULL) DESC',
  'ring-buffer/tables: ORDER BY (SELECT NULL) DESC',
  'ring-buffer/tables: bigint -> int at 2477',
];

describe('logic mutants of the executed files that write the lab tables', () => {
  it('change the state the model is left in', async function () {
    this.timeout(300_000);
    const seed = (text: string) => state((x) => x.seed(SEED_ROWS, text));
    // Each parameter set in a lab of its own: a later deploy drops what an earlier one made.
    const ring = async (text: string) => (await Promise.all(RING_CASES.map((p) => state((x) => x.ring(p, text))))).join('\n');
    let total = 0;
    const missed: string[] = [];
    for (const [name, text, answer] of [
      ['seed', SEED.batches[0], seed],
      ['ring-buffer/tables', RING.batches[0], ring],
    ] as const) {
      const base = await answer(text);
      assert.equal((base.match(/"errors":\[\]/g) ?? []).length, name === 'seed' ? 1 : 3, `${name} as written fails`);
      for (const [what, mutant] of mutants(text)) {
        total++;
        if ((await answer(mutant)) === base) missed.push(`${name}: ${what}`);
      }
    }
    console.log(`# logic mutants of the table-writing files: ${total - missed.length} of ${total} caught`);
    for (const m of missed) console.log(`#   not caught: ${m}`);
    assert.ok(total >= 20, `too few mutants (${total}): the generator is broken`);
    assert.deepEqual(missed.sort(), [...EQUIVALENT].sort());
  });
});
