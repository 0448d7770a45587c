// The sql/ files' handlers, by file id: one handler per batch, in batch order. Files the simulator executes instead
// (exec/files.ts) have none.
import type { BatchHandler } from '../statements';
import { APPLOCK_HANDLERS } from './applock';
import { CHECK_HANDLERS } from './check';
import { LAB_HANDLERS } from './lab';
import { SERVER_HANDLERS } from './server';
import { XE_HANDLERS } from './xe';

export const FILE_HANDLERS: Record<string, BatchHandler[]> = {
  ...SERVER_HANDLERS,
  ...CHECK_HANDLERS,
  ...LAB_HANDLERS,
  ...APPLOCK_HANDLERS,
  ...XE_HANDLERS,
};
