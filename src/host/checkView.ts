// The panel's "What will work here" report: `spinlab check` (src/engine/check.ts) run once on the connected server,
// on connect and on Refresh. A failing check never fails the connect: its error goes in the view instead.
import { checkServer, type CheckReport } from '../engine/check';
import type { DbSession } from '../db/client';
import type { CheckView } from '../shared/checkView';

export function toCheckView(r: CheckReport): CheckView {
  return {
    supported: r.supported,
    notes: r.notes,
    features: r.features.map((f) => ({ id: f.id, name: f.name, canRun: f.canRun, reasons: f.reasons, grants: f.grants })),
    error: null,
  };
}

export async function readCheck(session: () => Promise<DbSession>, labDatabase: string): Promise<CheckView> {
  try {
    return toCheckView(await checkServer(await session(), labDatabase));
  } catch (err) {
    return { supported: true, notes: [], features: [], error: `The permission check failed: ${(err as Error).message}` };
  }
}
