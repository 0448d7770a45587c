// sql/server/*: trace flags and database names (identity, topology and leftovers are executed: exec/files.ts).
import { cols, T } from '../types';
import type { BatchHandler } from '../statements';
import { resultSet } from './util';

const traceFlags: BatchHandler = (c) => [
  resultSet(
    cols([
      ['TraceFlag', T.smallint],
      ['Status', T.smallint],
      ['Global', T.smallint],
      ['Session', T.smallint],
    ]),
    c.model.traceFlags.map((f) => [f, 1, 1, 0]),
  ),
];

/** Databases whose physical_database_name (2019+ and Azure SQL, behind COL_LENGTH in the file) differs from the name. */
const databaseNames: BatchHandler = (c) => [
  resultSet(
    cols([
      ['name', T.sysname],
      ['physical_database_name', T.nvarchar(128)],
    ]),
    c.model.version < 15
      ? []
      : [...c.model.databases.values()].filter((d) => d.physicalName !== d.name).map((d) => [d.name, d.physicalName]),
  ),
];

export const SERVER_HANDLERS: Record<string, BatchHandler[]> = {
  'server/database-names': [databaseNames],
  'server/trace-flags': [traceFlags],
};
