// `spinlab` in this process, two ways the integration tests drive it:
//   mainCli: through main() as bin/spinlab.js runs it (exit code as main returns it), the connection in the
//            environment, what it writes to stdout and stderr captured (together, and apart);
//   programCli: through the commander program with its output and exit code captured apart, an error thrown out of
//            an action mapped to its exit code as main maps it (src/cli/exitCodes.ts).
import { buildProgram, main } from '../../src/cli/main';
import { exitForError } from '../../src/cli/exitCodes';
import type { Ask } from '../../src/cli/rerunPlan';

export interface MainResult {
  code: number;
  /** stdout and stderr as written, interleaved. */
  output: string;
  stdout: string;
  stderr: string;
}

/** `env` is laid over the environment for the call (undefined removes a variable), then the environment is put back. */
export async function mainCli(args: string[], env: Record<string, string | undefined> = {}): Promise<MainResult> {
  const saved = { ...process.env };
  const r = { output: '', stdout: '', stderr: '' };
  const ow = process.stdout.write.bind(process.stdout);
  const ew = process.stderr.write.bind(process.stderr);
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  process.stdout.write = ((s: string | Uint8Array) => {
    r.output += String(s);
    r.stdout += String(s);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => {
    r.output += String(s);
    r.stderr += String(s);
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: await main(args), ...r };
  } finally {
    process.stdout.write = ow;
    process.stderr.write = ew;
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

export async function programCli(args: string[], opts: { ask?: Ask | null } = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  let code = 0;
  const program = buildProgram(
    (s) => {
      out += s;
    },
    (s) => {
      err += s;
    },
    (c) => {
      code = c;
    },
    opts.ask,
  );
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (e) {
    return {
      code: exitForError(e, (s) => {
        err += s;
      }),
      out,
      err,
    };
  }
  return { code, out, err };
}
