// The product's sql/ files the simulator answers only by executing what arrived (batch.ts), with no handler knowing
// what the file means: a wrong predicate, join or type in one of them changes the answer as it would on SQL Server.
// The other files keep their handlers (handlers/) until the executor covers their statements.
export const EXECUTED_FILES: ReadonlySet<string> = new Set([
  'server/identity',
  'server/leftovers',
  'server/topology',
  'knobs/read',
  'workload/session-id',
  'dmv/snapshot-setup',
  'dmv/sample',
  'dmv/sample-delta',
  'workload/session-stats',
  'watch/tick',
  'watch/tick-delta',
  'lab/lock-take',
  'lab/lock-release',
  'lab/lock-mode',
  'workload/session-share',
  'server/database-names',
]);

/** The monitor's tick batches: each is charged --watcher-cost-ms (the knob that makes a monitor expensive) first. */
export const MONITOR_TICKS: ReadonlySet<string> = new Set(['dmv/sample-delta', 'watch/tick', 'watch/tick-delta']);
