// Runs one of test/clients/' programs (a driver the project did not write, driven by a small program of ours) against
// a simulator and reads the one JSON object it prints.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { selfSignedCert } from '../../tools/sim/tds/cert';

export const CLIENTS = path.resolve(__dirname, '..', '..', '..', 'test', 'clients');

export type ClientReport = Record<string, unknown>;

export function runClient(cmd: string, args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<ClientReport> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: opts.cwd });
    let out = '';
    let errText = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (errText += d));
    const timer = setTimeout(() => {
      p.kill();
      reject(new Error(`${cmd} timed out: ${out}${errText}`));
    }, opts.timeoutMs ?? 90_000);
    p.on('error', (e) => reject(new Error(`${cmd} could not start: ${e.message}`)));
    p.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${cmd} failed (${code}): ${errText}${out}`));
      resolve(JSON.parse(out) as ClientReport);
    });
  });
}

/** A setup step (build, dependency fetch) that must succeed; fails loudly with what to run when it does not. */
export function mustRun(cmd: string, args: string[], cwd: string, why: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`${why}: ${cmd} ${args.join(' ')} failed (${r.status ?? r.error?.message}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** What every client must see from the simulator, as from SQL Server (each program reports the same checks). */
export function assertCommon(r: ClientReport, client: string): void {
  assert.deepEqual(r.param, [41, 'forty-one'], `${client}: parameterised query`);
  assert.deepEqual(r.proc, { out: 42, status: 0 }, `${client}: sp_executesql by RPC, its OUTPUT parameter and return status`);
  const batch = r.batch_error as unknown[];
  assert.ok(Array.isArray(batch), `${client}: batch with an error: ${JSON.stringify(r.batch_error)}`);
  assert.match(String(batch[0]), /1/, `${client}: the first result set of the batch`);
  assert.ok(
    batch.some((x) => /in the middle/.test(String(x))),
    `${client}: the error in the middle: ${JSON.stringify(batch)}`,
  );
  const cancel = r.cancel as { result: string; seconds: number; after: unknown };
  assert.ok(typeof cancel === 'object', `${client}: cancel: ${JSON.stringify(r.cancel)}`);
  assert.ok(cancel.seconds < 5, `${client}: the WAITFOR was cancelled, not run out (${cancel.seconds}s): ${cancel.result}`);
  assert.equal(cancel.after, 5, `${client}: the server serves after the cancel`);
  assert.deepEqual(r.concurrent, { distinct: 50, errors: [] }, `${client}: 50 connections at once`);
}

/** The in-process simulator's certificate (one per process) in a PEM file, for a client's TDS 8 strict connection to verify. */
export async function simCertFile(): Promise<string> {
  const file = path.join(os.tmpdir(), `spinlab-sim-cert-${process.pid}.pem`);
  fs.writeFileSync(file, (await selfSignedCert()).cert);
  return file;
}
