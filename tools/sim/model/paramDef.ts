// A declared parameter, kept import-free: instance.ts holds procedures' parameter lists, and params.ts (which
// parses them) imports errors.ts, which imports instance.ts's types.

/** A declared parameter of a procedure or of sp_executesql's @params. */
export interface ParamDef {
  /** Lower case, with the @. */
  name: string;
  type: string;
  output: boolean;
  hasDefault: boolean;
}
