// Making one of the product's sql/ files fail on the simulator: the test knows the file and arms its batches' texts;
// the simulator matches what arrives by text and knows nothing of the product's files.
import { loadSqlFile } from '../../src/db/sqlFiles';
import type { StatementFault } from '../../tools/sim/model/faults';

export function failFile(
  sim: { faults: { failBatches(texts: readonly string[], f: StatementFault): void } },
  id: string,
  fault: StatementFault,
): void {
  sim.faults.failBatches(loadSqlFile(id).batches, fault);
}
