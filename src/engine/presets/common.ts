// Pieces the presets share: the scenario parameters of an arm (validated against the scenario's manifest), and the
// settings several presets take.
import type { ParamValue } from '../../shared/experiment';
import { resolveParams, type ParamSpec } from '../../shared/params';
import { getScenario } from '../scenarios';

/** The scenario's defaults with `values` on top, each checked against the manifest. */
export function scenarioParams(scenarioId: string, values: Record<string, ParamValue>): Record<string, ParamValue> {
  return resolveParams(getScenario(scenarioId).parameters, { json: values });
}

/**
 * Every preset runs each arm at each thread count 3 times by default: the fewest runs whose 95% interval is of use on a
 * quiet server (with 2 runs Student's t has one degree of freedom and multiplies the spread by 12.7, with 3 by 4.3), at
 * three times a single pass's time, which is already minutes. --repeat changes it; --repeat 1 runs each cell once.
 */
export const PRESET_REPEAT = 3;

export const DD_VALUES = ['DISABLED', 'ALLOWED', 'FORCED'];

export function ddOption(def: 'DISABLED' | 'FORCED', description: string): ParamSpec {
  return { name: 'delayed_durability', label: 'Delayed durability', type: 'enum', values: DD_VALUES, default: def, description };
}

export const seedRowsOption: ParamSpec = {
  name: 'seed_rows',
  label: 'Pre-seeded rows',
  type: 'int',
  default: 100000,
  min: 0,
  max: 100000000,
  unit: 'rows',
  description: 'Rows loaded into the disk-based table at deploy time (the posts load 16,777,216).',
};

export function batchOption(name: string, label: string, def: number, description: string): ParamSpec {
  return { name, label, type: 'int', default: def, min: 1, max: 1000, unit: 'rows', description };
}

export function affinityOption(description: string): ParamSpec {
  return {
    name: 'affinity',
    label: 'CPU affinity',
    type: 'enum',
    values: ['exclude-core0', 'unchanged'],
    default: 'exclude-core0',
    description,
  };
}

export function boolOption(name: string, label: string, def: boolean, description: string): ParamSpec {
  return { name, label, type: 'bool', default: def, description };
}

export type DD = 'DISABLED' | 'ALLOWED' | 'FORCED';
