// sql/knobs/*: affinity and delayed durability (reading them back, knobs/read, is executed: exec/files.ts).
import { setProcessAffinity } from '../ddl/ops';
import type { BatchCall, BatchHandler } from '../statements';
import { requireDb, strParam, throwUser } from './util';

function setAffinity(c: BatchCall, spec: string): [] {
  setProcessAffinity(c.model, c.session.login, spec);
  return [];
}

const listOk = (s: string | null) => s !== null && s.trim() !== '' && !/[^0-9, ]/.test(s.replace(/TO/gi, ''));

export const KNOB_HANDLERS: Record<string, BatchHandler[]> = {
  'knobs/affinity-auto': [(c) => setAffinity(c, 'CPU = AUTO')],
  'knobs/affinity-cpu': [
    (c) => {
      const r = strParam(c, '@cpu_ranges');
      if (!listOk(r)) throwUser(50011, 'Spinlock Lab: the CPU list must look like 2 TO 11, 14.');
      return setAffinity(c, `CPU = ${r}`);
    },
  ],
  'knobs/affinity-numa': [
    (c) => {
      const r = strParam(c, '@node_ranges');
      if (!listOk(r)) throwUser(50012, 'Spinlock Lab: the NUMA node list must look like 0 TO 1.');
      return setAffinity(c, `NUMANODE = ${r}`);
    },
  ],
  'knobs/delayed-durability': [
    (c) => {
      const mode = strParam(c, '@mode')?.toUpperCase() ?? null;
      if (mode === null || !['DISABLED', 'ALLOWED', 'FORCED'].includes(mode))
        throwUser(50010, 'Spinlock Lab: delayed durability must be DISABLED, ALLOWED or FORCED.');
      const db = requireDb(c, strParam(c, '@db'));
      c.model.advance(); // the rates so far belong to the old setting
      db.delayedDurability = mode as 'DISABLED' | 'ALLOWED' | 'FORCED';
      c.model.refreshRates();
      return [];
    },
  ],
};
