// The simulator in a process of its own (`spinlab sim --port 0`), for the tests whose client and server must not share
// one event loop (long loads, many searches at once): started, its port read from its banner, stopped with SIGTERM.
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

export async function startSimProcess(password: string, args: string[] = []): Promise<{ port: number; stop(): Promise<void> }> {
  const proc = spawn(process.execPath, [path.join(ROOT, 'bin', 'spinlab.js'), 'sim', '--port', '0', '--password', password, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the simulator did not start:\n${text}`)), 30_000);
    const onData = (d: Buffer) => {
      text += d;
      const m = /Listening on [^:]+:(\d+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (d) => {
      text += d;
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited (${code}):\n${text}`));
    });
  });
  proc.stdout!.resume();
  proc.stderr!.resume();
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}
