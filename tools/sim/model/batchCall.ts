// One batch as the model runs it: its text as it arrived, the session, and sp_executesql's parameters if it came
// through it.
import type { SessionContext, Value } from '../tds/contract';
import type { SimModel } from './instance';
import type { QueryContext } from './types';

export interface BatchCall extends QueryContext {
  model: SimModel;
  session: SessionContext;
  /** sp_executesql parameters by lower-case name with the @. */
  params: Map<string, Value>;
  /** sp_executesql's / sp_prepare's parameter definitions ('@db sysname, @n int'), as they arrived. */
  paramDefs?: string;
  signal: AbortSignal;
  text: string;
}
