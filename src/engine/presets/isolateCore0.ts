// The large-pages post: the same insert load with and without core 0 (the log writer's core) in the affinity mask, one session
// per online scheduler once core 0 is out; LOGCACHE_ACCESS spins compared. The post also discusses large memory
// pages: the server's memory model and large page allocations are shown (read-only: large pages need trace flag 834
// at startup).
import { SpinlabError } from '../errors';
import { batchOption, ddOption, scenarioParams, seedRowsOption, type DD, PRESET_REPEAT } from './common';
import { capThreads, cpusOf } from './topology';
import type { Preset } from './types';

export const isolateCore0: Preset = {
  id: 'isolate-core0',
  name: 'Core 0 left to the log writer',
  post: 'large-pages',
  question: 'Do LOGCACHE_ACCESS spins drop when core 0, where the log writer runs, is taken out of the affinity mask?',
  needs: [],
  options: [
    batchOption(
      'batch_size',
      'Rows per transaction',
      2,
      "Rows inserted per transaction (the NUMA post's workload, which this post repeats).",
    ),
    ddOption('FORCED', 'Delayed durability on the lab database for both arms (as in the NUMA post; this post does not say).'),
    seedRowsOption,
  ],
  load: { duration: '30s', warmup: '5s', interval: '1s' },
  repeat: PRESET_REPEAT,
  threads: 'one session per online scheduler once core 0 is out of the mask; the same for both arms',
  views: ['ab', 'math'],
  watch: ['LOGCACHE_ACCESS'],
  plan({ topology }, v, threads) {
    const notes: string[] = [];
    let cap: number;
    try {
      cap = cpusOf('exclude-core0', topology);
    } catch {
      throw new SpinlabError(
        'server',
        'This server has only core 0: there is nothing to run on once it is taken out of the mask.',
        'use a server with at least two cores.',
      );
    }
    const counts = threads ? capThreads(threads, cap, 'Without core 0 the server', notes) : [cap];
    const mm = topology.memoryModel ?? 'unknown (before SQL Server 2016 SP1)';
    const kb = (n: number | null) => (n === null ? 'unknown' : `${n.toLocaleString('en-US')} KB`);
    notes.push(
      `Memory model ${mm}; large page allocations ${kb(topology.largePageAllocationsKb)}; locked page allocations ${kb(topology.lockedPageAllocationsKb)}. ` +
        'Large pages are shown, never changed: they need Lock Pages in Memory and trace flag 834 at startup.',
    );
    const parameters = scenarioParams('disk-insert', { batch_size: v.batch_size, seed_rows: v.seed_rows });
    const dd = v.delayed_durability as DD;
    return {
      arms: [
        {
          id: 'with-core0',
          label: 'every CPU, core 0 included',
          scenarioId: 'disk-insert',
          parameters,
          knobs: { delayedDurability: dd, affinity: 'auto' },
          mode: 'server-loop',
          threads: counts,
        },
        {
          id: 'without-core0',
          label: 'core 0 left out of the mask',
          scenarioId: 'disk-insert',
          parameters,
          knobs: { delayedDurability: dd, affinity: 'exclude-core0' },
          mode: 'server-loop',
          threads: counts,
        },
      ],
      comparisons: [{ a: 'with-core0', b: 'without-core0', label: 'core 0 included (A) against left out (B)' }],
      notes,
    };
  },
};
