// The sql/ files' handlers, by file id: one handler per batch, in batch order. Files the simulator executes instead
// (exec/files.ts) have none.
import type { BatchHandler } from '../statements';
import { APPLOCK_HANDLERS } from './applock';
import { CHECK_HANDLERS } from './check';
import { LAB_HANDLERS } from './lab';
import { SCENARIO_HANDLERS } from './scenarios';
import { SERVER_HANDLERS } from './server';

export const FILE_HANDLERS: Record<string, BatchHandler[]> = {
  ...SERVER_HANDLERS,
  ...CHECK_HANDLERS,
  ...LAB_HANDLERS,
  ...APPLOCK_HANDLERS,
  ...SCENARIO_HANDLERS,
};
