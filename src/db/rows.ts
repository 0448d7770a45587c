// What a query returns (rows of plain values) and how a value is read from a row: numbers (bigint columns arrive as
// strings), nullable numbers and text. Apart from client.ts so the code that reads rows needs no driver.

export type Row = Record<string, unknown>;
export type ResultSets = Row[][];

/** Numbers from the driver: bigint columns arrive as strings (tedious keeps their precision); NULL reads as 0. */
export function num(v: unknown): number {
  if (v === null || v === undefined) return 0;
  return typeof v === 'number' ? v : Number(v);
}
/** As num(), but NULL stays null: for a figure the server may not have. */
export function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : num(v);
}
export function str(v: unknown): string {
  return v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v);
}
