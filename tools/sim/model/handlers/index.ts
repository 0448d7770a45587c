// The sql/ files' handlers, by file id: one handler per batch, in batch order. Files the simulator executes instead
// (exec/files.ts) have none.
import type { BatchHandler } from '../statements';
import { SCENARIO_HANDLERS } from './scenarios';

export const FILE_HANDLERS: Record<string, BatchHandler[]> = {
  ...SCENARIO_HANDLERS,
};
