// The bench's native client: bench/native/dblib_loop.c (FreeTDS db-lib, one process per session), built here and run
// by the driver bench (bench/driver.ts) as the floor a client loop is compared with.
import { spawn, spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureDebianPackage } from './apt';
import { BENCH_SIM_PASSWORD } from './constants';

const NATIVE_SRC = path.join(__dirname, '..', '..', 'bench', 'native', 'dblib_loop.c');

/** Builds bench/native/dblib_loop.c with FreeTDS db-lib, installing freetds-dev when the header is missing. */
export function buildNative(log: (s: string) => void): { binary: string } | { missing: string } {
  const binary = path.join(os.tmpdir(), `spinlab-dblib-loop-${process.getuid?.() ?? 0}`);
  const missing = ensureDebianPackage('freetds-dev', '/usr/include/sybdb.h', log);
  if (missing) return { missing: `FreeTDS db-lib headers: ${missing}` };
  const cc = spawnSync('cc', ['-O2', '-Wall', '-o', binary, NATIVE_SRC, '-lsybdb'], { encoding: 'utf8' });
  if (cc.error || cc.status !== 0) return { missing: `cc -lsybdb failed: ${(cc.stderr || cc.error?.message || '').trim().slice(0, 300)}` };
  return { binary };
}

export interface NativeOut {
  calls: number;
  errors: number;
  ms: number;
  cpuUs: number;
}

/**
 * Runs the native client: it connects `sessions` processes, warms up, prints READY, waits for a line on stdin (so the
 * simulator's CPU can be read at the start of the window), runs `ms`, prints one RESULT line.
 */
export function runNative(
  binary: string,
  port: number,
  database: string,
  procedure: string,
  sessions: number,
  warmupMs: number,
  ms: number,
  onReady: () => Promise<void>,
): Promise<NativeOut> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      binary,
      ['127.0.0.1', String(port), 'sa', BENCH_SIM_PASSWORD, database, procedure, String(sessions), String(warmupMs), String(ms)],
      { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TDSVER: '7.4' } },
    );
    let out = '';
    let err = '';
    let readySeen = false;
    p.stdout.on('data', (d) => {
      out += d;
      if (!readySeen && /^READY$/m.test(out)) {
        readySeen = true;
        onReady().then(() => p.stdin.write('go\n'), reject);
      }
    });
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => {
      const m = /^RESULT calls=(\d+) errors=(\d+) ms=([\d.]+) cpu_us=(\d+)$/m.exec(out);
      if (code !== 0 || !m) reject(new Error(`dblib_loop exited ${code}: ${(err || out).trim().slice(0, 500)}`));
      else resolve({ calls: Number(m[1]), errors: Number(m[2]), ms: Number(m[3]), cpuUs: Number(m[4]) });
    });
  });
}
