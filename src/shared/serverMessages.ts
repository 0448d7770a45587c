// The server feature's messages (src/host/features/server): a scenario deployed into or removed from the lab
// database, and the restore journal put back.
import { z } from 'zod';
import { fromWebview } from './messages';
import { parameters } from './messageSchemas';

/** Webview -> host. */
export const ServerToHost = {
  scenarioDeploy: fromWebview('scenarioDeploy', z.object({ scenarioId: z.string().max(64), parameters })),
  scenarioCleanup: fromWebview('scenarioCleanup', z.object({ scenarioId: z.string().max(64) })),
  /** Put back what an interrupted experiment's restore journal recorded. */
  serverRestore: fromWebview('serverRestore', z.object({})),
} as const;
