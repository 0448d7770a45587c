// A row of the per-run results table and a column of it: the types and column makers the table's models share
// (results.ts builds the server's columns, customColumns.ts a custom workload's own), apart so neither imports the other.
import type { RunFigures } from '../../shared/analysis';
import type { CustomHeadline } from '../../shared/customHeadline';
import type { OwnShare } from '../../shared/ownShare';

export interface ResultRow {
  run: number;
  figures: RunFigures;
  /** The run's arm (a preset runs several) and repetition (a repeated experiment), when known. */
  arm?: string;
  repetition?: number;
  /** The workload's own share of the server's CPU and waits (shared/ownShare.ts), once the run ended; null: not read. */
  share?: OwnShare | null;
  /** A custom workload's own sessions' figures (shared/customHeadline.ts), once the run ended. */
  own?: CustomHeadline | null;
}

export interface ResultColumn {
  key: string;
  label: string;
  /** Full text for the header's title / aria-label. */
  title: string;
  numeric: boolean;
  /** The unit of value() (ms, µs, s, B; '' for a count): each cell is written in the unit that reads best. */
  unit?: string;
  value: (row: ResultRow) => number | string | null;
}

/** A numeric column: `unit` is value()'s (each cell is written in the unit that reads best). */
export const num = (
  key: string,
  label: string,
  title: string,
  value: (r: ResultRow) => number | string | null,
  unit = '',
): ResultColumn => ({
  key,
  label,
  title,
  numeric: true,
  unit,
  value,
});

/** The workload's own sessions' share of the server's CPU, in percent (null where it was not read). */
export const ownCpuColumn = (): ResultColumn =>
  num(
    'ownCpu',
    'Own CPU',
    "The workload's own sessions' share of the server's CPU: the rest was other sessions' and the server's own work",
    (r) => (r.share?.cpu === null || r.share?.cpu === undefined ? null : r.share.cpu * 100),
    '%',
  );
