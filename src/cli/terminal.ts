// How wide the CLI's printed tables may be (engine/textTable.ts fitTables): a terminal's own width; output that is
// not a terminal (a pipe, a file, a CI log) keeps whole lines, one row per line for grep and diff, unless COLUMNS
// says a width.
const FALLBACK = 100;

export function terminalWidth(
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number {
  if (stream.isTTY) return stream.columns && stream.columns > 0 ? stream.columns : FALLBACK;
  const cols = Number(env.COLUMNS);
  return Number.isInteger(cols) && cols > 0 ? cols : Infinity;
}
