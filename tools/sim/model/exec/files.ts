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
  // DDL (ddl/): the scenarios' objects and procedures, whose calls are read from the stored bodies.
  'scenarios/disk-insert/deploy',
  'scenarios/disk-insert/cleanup',
  'scenarios/inmem-insert/procs',
  'scenarios/inmem-insert/cleanup',
  'scenarios/ring-buffer/procs-sequence',
  'scenarios/ring-buffer/procs-disk-identity',
  'scenarios/ring-buffer/procs-memory-identity',
  'scenarios/ring-buffer/procs-loop',
  'scenarios/ring-buffer/cleanup',
  'scenarios/inmem-insert/table',
  // INSERT ... SELECT into the lab's tables: a seed of millions of rows counted from its query (exec/lazy.ts).
  'scenarios/disk-insert/seed',
  'scenarios/ring-buffer/tables',
  // The knobs: validated by the file's IF ... THROW, applied by the ALTER it builds and runs with sp_executesql.
  'knobs/affinity-auto',
  'knobs/affinity-cpu',
  'knobs/affinity-numa',
  'knobs/delayed-durability',
  // The lab database: created, given its In-Memory OLTP filegroup and container, listed and dropped by its own DDL.
  'lab/create',
  'lab/drop',
  'lab/add-xtp-filegroup',
  'lab/tables',
  // The capture's event session: its checks, the CREATE / ALTER / DROP EVENT SESSION it builds and runs with
  // sp_executesql (ddl/xeStatement.ts), and the XE views it reads.
  'xe/cpus',
  'xe/spinlock-type',
  'xe/create-session',
  'xe/read-target',
  'xe/drop-session',
  // The lab's reads and its session control: probe, holder and lock-holder are SELECTs over the modelled views
  // (sys.dm_tran_locks among them), KILL and NEXT VALUE FOR run on the model's sessions and sequence.
  'lab/probe',
  'lab/holder',
  'lab/lock-holder',
  'lab/kill',
  'lab/common',
  'lab/key-block',
  // The preflight (SERVERPROPERTY, HAS_PERMS_BY_NAME, the host and Managed Instance views) and DBCC TRACESTATUS.
  'server/check',
  'server/trace-flags',
]);

