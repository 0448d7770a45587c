// `spinlab` in this process, two ways the integration tests drive it:
//   mainCli: through main() as bin/spinlab.js runs it (exit code as main returns it), the connection in the
//            environment, every byte it writes to stdout and stderr captured together;
//   programCli: through the commander program with its output and exit code captured apart, an error thrown out of
//            an action mapped to its exit code as main maps it (src/cli/exitCodes.ts).
import { buildProgram, main } from '../../src/cli/main';
import { exitForError } from '../../src/cli/exitCodes';
import type { Ask } from '../../src/cli/rerunPlan';

export async function mainCli(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  let output = '';
  const ow = process.stdout.write.bind(process.stdout);
  const ew = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string | Uint8Array) => { output += String(s); return true; }) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => { output += String(s); return true; }) as typeof process.stderr.write;
  try {
    return { code: await main(args), output };
  } finally {
    process.stdout.write = ow;
    process.stderr.write = ew;
    process.env = saved;
  }
}

export async function programCli(args: string[], opts: { ask?: Ask | null } = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  let code = 0;
  const program = buildProgram((s) => { out += s; }, (s) => { err += s; }, (c) => { code = c; }, opts.ask);
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (e) {
    return { code: exitForError(e, (s) => { err += s; }), out, err };
  }
  return { code, out, err };
}
