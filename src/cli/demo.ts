// `spinlab demo` (npm run demo): start the built-in simulator on a free loopback port, run disk-insert over a short
// sweep, print the results and leave the output folder (experiment.json, samples.jsonl, experiment.ipynb). Everything it prints is labelled as simulated.
import * as path from 'node:path';
import { runCommand } from './run';
import { claimOutput } from './output';

interface SimulatorModule {
  startSimulator(opts: { port: number; password: string }): Promise<{ port: number; close(): Promise<void> }>;
}

export async function runDemo(outDir: string | undefined, out: (s: string) => void): Promise<number> {
  // Loaded at run time: the simulator is a dev tool and stays out of the extension's bundle.
  let startSimulator: SimulatorModule['startSimulator'];
  try {
    ({ startSimulator } = require('../../tools/sim/simulator') as SimulatorModule);
  } catch (err) {
    out(
      `The demo needs the built-in simulator (tools/sim/simulator), which this build does not have: ${(err as Error).message.split('\n')[0]}\n`,
    );
    return 1;
  }
  const output = claimOutput(outDir, 'demo');
  const dir = output.dir;
  const password = `Demo-${Math.random().toString(36).slice(2)}!`;
  let sim: Awaited<ReturnType<SimulatorModule['startSimulator']>> | null = null;
  try {
    sim = await startSimulator({ port: 0, password });
    out(`Started the Spinlock Lab simulator on 127.0.0.1:${sim.port} (synthetic numbers, not a SQL Server).\n`);
    return await runCommand(
      {
        connection: `Server=127.0.0.1,${sim.port};User ID=sa;Password=${password};Encrypt=false;TrustServerCertificate=true`,
        scenario: 'disk-insert',
        threads: '1,2,4',
        duration: '3s',
        warmup: '1s',
        interval: '1s',
        mode: 'server-loop',
        set: ['batch_size=1'],
        deploy: true,
        out: dir,
        labDb: 'SpinlockLab',
        title: 'Demo: disk-insert on the simulator, 1 to 4 threads',
        question: 'How do throughput and spinlock pressure change as sessions are added?',
        notebook: path.join(dir, 'experiment.ipynb'),
      },
      out,
      (s) => process.stderr.write(s),
    );
  } finally {
    await sim?.close();
    output.releaseIfUnused();
  }
}
