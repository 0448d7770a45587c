// The house limit on a source file's length: no TypeScript file under src/ passes 400 lines (as Prettier formats it,
// printWidth 140). A file that grows past it holds more than one purpose; split it into named modules of one purpose
// each rather than raising the limit. Each offender is named with its count.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const src = path.join(root, 'src');
const LIMIT = 400;

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

function lineCount(file: string): number {
  const text = fs.readFileSync(file, 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

it(`no TypeScript file under src/ passes ${LIMIT} lines`, () => {
  const over = files(src)
    .map((f) => ({ file: path.relative(root, f).split(path.sep).join('/'), lines: lineCount(f) }))
    .filter((x) => x.lines > LIMIT)
    .map((x) => `${x.file}: ${x.lines} lines`);
  assert.deepEqual(over, [], `over ${LIMIT} lines (split each into modules of one purpose):\n${over.join('\n')}`);
});
