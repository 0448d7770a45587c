// Node prints library deprecation notices (e.g. DEP0040 when a dependency loads the punycode module on Node 21+) to
// stderr: they are for the library's developers, not for someone running spinlab, so the CLI entry drops them.
// SPINLAB_SHOW_WARNINGS=1 shows them again; warnings of other kinds pass through.

type Emit = typeof process.emitWarning;

function isDeprecation(warning: unknown, rest: unknown[]): boolean {
  if (warning instanceof Error && warning.name === 'DeprecationWarning') return true;
  const opt = rest[0];
  if (opt === 'DeprecationWarning') return true;
  return typeof opt === 'object' && opt !== null && (opt as { type?: string }).type === 'DeprecationWarning';
}

export function quietDeprecations(env: NodeJS.ProcessEnv = process.env): void {
  if (env.SPINLAB_SHOW_WARNINGS === '1') return;
  const emit: Emit = process.emitWarning.bind(process);
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (isDeprecation(warning, rest)) return;
    (emit as (w: string | Error, ...r: unknown[]) => void)(warning, ...rest);
  }) as Emit;
}
