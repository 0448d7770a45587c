// Child processes for the benchmark: each measured party (the simulator, each client) runs in a process of its own,
// so process.cpuUsage() of one never includes another's work. A child is this same compiled file forked with a role
// argument; messages are plain objects with a `kind`.
import { fork, type ChildProcess } from 'node:child_process';

export interface Msg {
  kind: string;
  [k: string]: unknown;
}

/** Waits for the next message of this kind from a child; rejects if the child exits first. */
export function next<T extends Msg>(child: ChildProcess, kind: string, timeoutMs = 120_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = () => {
      child.off('message', on);
      child.off('exit', onExit);
      clearTimeout(timer);
    };
    const on = (m: Msg) => {
      if (m.kind === 'error') {
        done();
        reject(new Error(String(m.message)));
      } else if (m.kind === kind) {
        done();
        resolve(m as T);
      }
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`child exited (${code}) before sending '${kind}'`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out waiting ${timeoutMs} ms for '${kind}'`));
    }, timeoutMs);
    child.on('message', on);
    child.once('exit', onExit);
  });
}

/** Forks `file` with `args`; the child's stderr is kept for error messages. */
export function forkRole(file: string, args: string[], execArgv: string[] = []): ChildProcess {
  return fork(file, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
}

/** Receives messages in a child: resolves on the next message of this kind from the parent. */
export function fromParent<T extends Msg>(kind: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: Msg) => {
      if (m.kind !== kind) return;
      process.off('message', on);
      resolve(m as T);
    };
    process.on('message', on);
  });
}

export function toParent(m: Msg): void {
  process.send!(m);
}

/** Runs a child role's main, reporting a failure to the parent before exiting. */
export function runRole(main: () => Promise<void>): void {
  main().catch((err) => {
    try {
      toParent({ kind: 'error', message: (err as Error).stack ?? String(err) });
    } catch {
      /* no parent */
    }
    setTimeout(() => process.exit(1), 50);
  });
}

export function cpuMicros(u: NodeJS.CpuUsage): number {
  return u.user + u.system;
}

export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    child.send({ kind: 'stop' });
  } catch {
    /* channel closed */
  }
  const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(t);
}
