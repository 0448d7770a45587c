// The ring buffer post: the LMAX ring buffer. Slot numbers from a sequence against the identity-based generator, a disk-based slot
// table against a memory-optimized one, SCHEMA_ONLY against SCHEMA_AND_DATA, over a thread sweep to 24 (the post's
// range), with delayed durability FORCED as in the post. METADATA_SEQUENCE_GENERATOR and LOCK_RW_CMED_HASH_SET shown.
import type { PlanArm } from '../experiment';
import { ddOption, scenarioParams, type DD, PRESET_REPEAT } from './common';
import { capThreads, cpusOf, sweepUpTo } from './topology';
import type { Preset, PresetComparison } from './types';
import { plural } from '../../shared/plural';

const STEPS = [1, 2, 4, 8, 16, 24];

export const ringBuffer: Preset = {
  id: 'ring-buffer',
  name: 'Ring buffer: sequence against identity slots',
  post: 'ring-buffer',
  question:
    'Does the identity-based slot generator remove the METADATA_SEQUENCE_GENERATOR latch and scale further; does a memory-optimized slot table help; does SCHEMA_ONLY buy anything over SCHEMA_AND_DATA?',
  needs: ['In-Memory OLTP'],
  options: [
    {
      name: 'mode',
      label: 'Operations',
      type: 'enum',
      values: ['push', 'push-pop'],
      default: 'push-pop',
      description:
        'The post mostly pushes only; push-pop keeps the ring from filling over a long sweep (a full ring ends a push-only run).',
    },
    {
      name: 'slots',
      label: 'Slots',
      type: 'int',
      default: 1048576,
      min: 16,
      max: 268435456,
      unit: 'slots',
      description: "The ring's size (the post: 4,000,000).",
    },
    {
      name: 'sequence_cache',
      label: 'Sequence cache',
      type: 'int',
      default: 50,
      min: 0,
      max: 1000000,
      unit: 'values',
      description: 'CACHE of the sequences; 0 = NO CACHE.',
    },
    ddOption('FORCED', 'Delayed durability on the lab database for every arm (the post uses it throughout, to get past WRITELOG).'),
  ],
  load: { duration: '30s', warmup: '5s', interval: '1s' },
  repeat: PRESET_REPEAT,
  threads: `a sweep of ${STEPS.join(', ')} up to the server's CPUs (the post goes to 24)`,
  views: ['ab', 'scaling'],
  watch: ['METADATA_SEQUENCE_GENERATOR', 'LOCK_RW_CMED_HASH_SET', 'LATCH_SH', 'SOS_SCHEDULER_YIELD'],
  plan({ topology, identity }, v, threads) {
    const notes: string[] = [];
    const cap = cpusOf('auto', topology);
    const sweep = threads ? capThreads(threads, cap, 'The server', notes) : sweepUpTo(cap, STEPS);
    if (!threads && cap < 24) notes.push(`The sweep stops at ${plural(cap, 'thread')}, the server's CPU count (the post goes to 24).`);
    const dd = v.delayed_durability as DD;
    const arm = (id: string, label: string, storage: string, slot_source: string, durability = 'SCHEMA_AND_DATA'): PlanArm => ({
      id,
      label,
      scenarioId: 'ring-buffer',
      mode: 'server-loop',
      threads: sweep,
      knobs: { delayedDurability: dd },
      parameters: scenarioParams('ring-buffer', {
        storage,
        slot_source,
        durability,
        mode: v.mode,
        slots: v.slots,
        sequence_cache: v.sequence_cache,
      }),
    });
    const arms: PlanArm[] = [arm('disk-sequence', 'disk-based slots, sequence', 'disk', 'sequence')];
    const comparisons: PresetComparison[] = [];
    if (!identity.xtpSupported) {
      notes.push(
        'This server has no In-Memory OLTP: only the disk-based slots with a sequence run; the memory-optimized table, the identity-based slots and SCHEMA_ONLY need it.',
      );
    } else {
      arms.push(
        arm('memory-sequence', 'memory-optimized slots, sequence', 'memory', 'sequence'),
        arm('memory-identity', 'memory-optimized slots, identity-based slots', 'memory', 'identity'),
        arm('memory-identity-schema-only', 'memory-optimized slots, identity-based, SCHEMA_ONLY', 'memory', 'identity', 'SCHEMA_ONLY'),
      );
      comparisons.push(
        { a: 'disk-sequence', b: 'memory-sequence', label: 'disk-based (A) against memory-optimized (B) slots, both from a sequence' },
        { a: 'memory-sequence', b: 'memory-identity', label: 'sequence (A) against identity-based (B) slot numbers' },
        { a: 'memory-identity', b: 'memory-identity-schema-only', label: 'SCHEMA_AND_DATA (A) against SCHEMA_ONLY (B)' },
      );
    }
    return { arms, comparisons, notes };
  },
};
