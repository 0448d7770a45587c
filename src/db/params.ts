// The parameters of a call as plain values (ProcArg) and the parser for a sql/ file's or a replay's parameter
// declaration ('@db sysname, @mode nvarchar(16)'). Driver-free; client.ts turns the declared types into the driver's.

export interface ProcArg {
  name: string;
  type: string;
  value: unknown;
}

/** '@db sysname, @mode nvarchar(16)' → [['db','sysname'], ['mode','nvarchar(16)']]. */
export function parseParameterDeclaration(decl: string): [string, string][] {
  if (!decl.trim()) return [];
  const out: [string, string][] = [];
  for (const part of decl.split(/,(?![^()]*\))/)) {
    const m = /^\s*@(\w+)\s+(.+?)\s*$/.exec(part);
    if (!m) throw new Error(`bad parameter declaration '${part.trim()}'`);
    out.push([m[1], m[2]]);
  }
  return out;
}
