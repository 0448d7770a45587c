// sql/server/trace-flags (DBCC TRACESTATUS); the other server/ files are executed (exec/files.ts).
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

export const SERVER_HANDLERS: Record<string, BatchHandler[]> = {
  'server/trace-flags': [traceFlags],
};
