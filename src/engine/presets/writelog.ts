// The WRITELOG post: WRITELOG at scale. The insert load with delayed durability DISABLED against FORCED; the figures the post
// reasons with (log flushes/s, log bytes flushed/s, average log write stall against average WRITELOG wait, pending log
// I/O against the log writer's limit of outstanding writes) shown side by side for each.
import { affinityOption, batchOption, scenarioParams, seedRowsOption, PRESET_REPEAT } from './common';
import { capThreads, cpusOf } from './topology';
import type { Preset } from './types';

const SESSIONS = 16;

export const writelog: Preset = {
  id: 'writelog',
  name: 'WRITELOG: full against delayed durability',
  post: 'writelog-at-scale',
  question:
    'How much of the commit time is WRITELOG, does it come from the storage or from the log writer, and what does DELAYED_DURABILITY = FORCED take away?',
  needs: [],
  options: [
    batchOption('batch_size', 'Rows per transaction', 2, 'Rows inserted per transaction (the post inserts 2).'),
    affinityOption(
      "exclude-core0 keeps the sessions off the log writer's core, as in the post's setup; unchanged keeps the server's affinity.",
    ),
    seedRowsOption,
  ],
  load: { duration: '30s', warmup: '5s', interval: '1s' },
  repeat: PRESET_REPEAT,
  threads: `${SESSIONS} sessions, or one per CPU the affinity leaves when fewer`,
  views: ['ab', 'writelog'],
  watch: ['WRITELOG', 'LOGCACHE_ACCESS', 'LOGFLUSHQ'],
  plan({ topology }, v, threads) {
    const notes: string[] = [];
    const affinity = v.affinity === 'exclude-core0' ? 'exclude-core0' : undefined;
    const cap = cpusOf(affinity ?? 'auto', topology);
    const counts = threads ? capThreads(threads, cap, 'The server with this affinity', notes) : [Math.min(SESSIONS, cap)];
    const parameters = scenarioParams('disk-insert', { batch_size: v.batch_size, seed_rows: v.seed_rows });
    return {
      arms: [
        {
          id: 'dd-disabled',
          label: 'delayed durability DISABLED (every commit waits for its flush)',
          scenarioId: 'disk-insert',
          parameters,
          knobs: { delayedDurability: 'DISABLED', affinity },
          mode: 'server-loop',
          threads: counts,
        },
        {
          id: 'dd-forced',
          label: 'delayed durability FORCED',
          scenarioId: 'disk-insert',
          parameters,
          knobs: { delayedDurability: 'FORCED', affinity },
          mode: 'server-loop',
          threads: counts,
        },
      ],
      comparisons: [{ a: 'dd-disabled', b: 'dd-forced', label: 'DISABLED (A) against FORCED (B)' }],
      notes,
    };
  },
};
