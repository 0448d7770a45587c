// `spinlab` as a child process against a simulator, as a user runs it (for the tests that kill it, or run two at once):
// the connection from SPINLAB_CONNECTION, the password apart in SPINLAB_PASSWORD as the README says (never in the
// connection string), the restore journal in its own state folder; stdout and stderr collected together.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { Simulator } from '../../tools/sim/simulator';
import { SIM_PASSWORD } from './simClient';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const BIN = path.join(ROOT, 'bin', 'spinlab.js');

export interface Child {
  proc: ChildProcess;
  out: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spinlabChild(sim: Simulator, stateDir: string, args: string[]): Child {
  const proc = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
      SPINLAB_PASSWORD: SIM_PASSWORD,
      SPINLAB_STATE_DIR: stateDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  proc.stdout!.on('data', (d) => {
    text += d;
  });
  proc.stderr!.on('data', (d) => {
    text += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { proc, out: () => text, exited };
}
