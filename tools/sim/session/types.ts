// Shapes the model shares with the session layer (kept import-free so the model can use them without a circle).

/** A declared parameter of a procedure or of sp_executesql's @params. */
export interface ParamDef {
  /** Lower case, with the @. */
  name: string;
  type: string;
  output: boolean;
  hasDefault: boolean;
}
