// The last ticks of a watch read back from its samples.jsonl: the window the diagnosis reads at the end. A watch keeps
// no window in memory (a fleet of 50 held 60 JSON lines per server, a fifth of its live heap, which V8's old generation
// then sized itself to several times over); every tick is on disk already, one line each, in the order it arrived.
import * as fs from 'node:fs';
import type { WatchTick } from '../../shared/watch';

const NL = 0x0a;

/**
 * The last `n` complete lines of a file, oldest first, read backwards in chunks (a watch of hours has a large file,
 * and only its end is wanted). Bytes are decoded only once whole lines are in hand, so a character split across two
 * chunks is read whole. A last line without its newline (a write cut short by a full disk) is not a line yet.
 */
export function readLastLines(file: string, n: number, chunkBytes = 64 * 1024): string[] {
  if (n <= 0) return [];
  const fd = fs.openSync(file, 'r');
  try {
    let end = fs.fstatSync(fd).size;
    const chunks: Buffer[] = [];
    let newlines = 0;
    // n lines need n + 1 newlines in hand: the first chunk read may start inside a line (unless it starts the file).
    while (end > 0 && newlines <= n) {
      const start = Math.max(0, end - chunkBytes);
      const buf = Buffer.alloc(end - start);
      fs.readSync(fd, buf, 0, buf.length, start);
      chunks.unshift(buf);
      for (let i = 0; i < buf.length; i++) if (buf[i] === NL) newlines++;
      end = start;
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const lines = text.split('\n');
    lines.pop(); // after the last newline: '' or a line cut short
    return lines.slice(-n);
  } finally {
    fs.closeSync(fd);
  }
}

/** The watch's last `n` ticks from its samples.jsonl (each line one tick, as appended), oldest first. */
export function readWindow(samplesFile: string, n: number): WatchTick[] {
  return readLastLines(samplesFile, n).map((line) => JSON.parse(line) as WatchTick);
}
