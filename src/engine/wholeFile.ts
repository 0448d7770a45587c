// Writing a file whole or not at all: into a temporary file beside it, then renamed over it. A failed write (the
// target is a folder, the disk is full) removes the temporary file instead of leaving it behind.
import * as fs from 'node:fs';

export function writeWholeFile(file: string, text: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}
