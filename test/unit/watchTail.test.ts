// The watch's window read back from samples.jsonl at the end (src/engine/watch/tail.ts): the last n complete lines,
// whatever the chunk size, with characters split across chunks read whole and a line cut short left out.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readLastLines, readWindow } from '../../src/engine/watch/tail';

describe('watch: the window read back from samples.jsonl', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-tail-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (lines: string[], tail = '') => {
    const file = path.join(dir, 'samples.jsonl');
    fs.writeFileSync(file, lines.map((l) => l + '\n').join('') + tail);
    return file;
  };

  it('gives the last n lines, oldest first, at every chunk size', () => {
    // Lines of different lengths with characters of 2, 3 and 4 bytes, so chunk edges fall inside them.
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ t: i, name: 'é€😀'.repeat(i % 7), pad: 'x'.repeat(i * 3) }));
    const file = write(lines);
    for (const chunk of [1, 2, 3, 7, 16, 100, 4096, 1 << 20])
      for (const n of [1, 5, 39, 40, 60]) assert.deepEqual(readLastLines(file, n, chunk), lines.slice(-n), `chunk ${chunk}, n ${n}`);
  });

  it('leaves out a last line cut short (no newline: a write that failed part-way)', () => {
    const file = write(['{"t":1}', '{"t":2}', '{"t":3}'], '{"t":4,"na');
    assert.deepEqual(readLastLines(file, 2, 3), ['{"t":2}', '{"t":3}']);
    assert.deepEqual(
      readWindow(file, 2).map((t) => t.t),
      [2, 3],
    );
  });

  it('an empty file, or n of 0, gives no lines', () => {
    const file = write([]);
    assert.deepEqual(readLastLines(file, 5), []);
    assert.deepEqual(readLastLines(write(['{"t":1}']), 0), []);
  });
});
