// `spinlab watch --servers` as a child process, a real Prometheus (Debian's package) scraping it, and the watch's own
// samples.jsonl read back: what the fleet tests compare.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { WatchTick } from '../../src/shared/watch';
import { BIN, ROOT } from './cliChild';

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface Proc {
  proc: ChildProcess;
  text: () => string;
  stop: () => Promise<void>;
}

export function startProc(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd = ROOT): Proc {
  const proc = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  proc.stdout!.on('data', (d) => (text += d));
  proc.stderr!.on('data', (d) => (text += d));
  return {
    proc,
    text: () => text,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

export async function waitFor<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The fleet watch as a user starts it; resolves once it says where its metrics are. */
export async function startFleet(serversFile: string, outDir: string, env: NodeJS.ProcessEnv, extra: string[] = []) {
  const p = startProc(process.execPath, [BIN, 'watch', '--servers', serversFile, '--out', outDir, ...extra], { ...process.env, ...env });
  const port = await waitFor('the metrics listener', () => {
    if (p.proc.exitCode !== null) throw new Error(`spinlab watch exited:\n${p.text()}`);
    const m = /metrics on http:\/\/[^\s]*:(\d+)\/metrics/.exec(p.text());
    return m ? Number(m[1]) : undefined;
  });
  return { ...p, port };
}

/** Every tick of every watch folder of one server (a server's restarts each have their own), in order. */
export function serverTicks(outDir: string, name: string): WatchTick[] {
  const root = path.join(outDir, name);
  if (!fs.existsSync(root)) return [];
  const dirs = fs
    .readdirSync(root)
    .filter((d) => fs.existsSync(path.join(root, d, 'samples.jsonl')))
    .sort();
  return dirs.flatMap((d) =>
    fs
      .readFileSync(path.join(root, d, 'samples.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as WatchTick),
  );
}

export const PROMETHEUS = '/usr/bin/prometheus';
export { ROOT };
