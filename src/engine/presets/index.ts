// The preset catalogue: one per post, each a plan of arms that reproduces its experiment on the connected server.
import type { ParamValue } from '../../shared/experiment';
import { getPost } from '../../shared/posts';
import { resolveParams } from '../../shared/params';
import { SpinlabError } from '../../shared/spinlabError';
import { isolateCore0 } from './isolateCore0';
import { numaLogwriter } from './numaLogwriter';
import { ringBuffer } from './ringBuffer';
import type { Preset, PresetPlan, PresetServer } from './types';
import { writelog } from './writelog';
import { xdesmgrBatch } from './xdesmgrBatch';

export type { Preset, PresetPlan, PresetServer } from './types';

const PRESETS: readonly Preset[] = [numaLogwriter, isolateCore0, xdesmgrBatch, writelog, ringBuffer];

export function listPresets(): readonly Preset[] {
  return PRESETS;
}

export function getPreset(id: string): Preset {
  const p = PRESETS.find((x) => x.id === id);
  if (!p) throw new SpinlabError('user-input', `Unknown preset '${id}'. Known presets: ${PRESETS.map((x) => x.id).join(', ')}.`);
  return p;
}

/** The preset's settings: its defaults with --set values (and JSON) on top; every problem listed with what is allowed. */
export function presetValues(
  p: Preset,
  input: { set?: readonly string[]; json?: Record<string, unknown> } = {},
): Record<string, ParamValue> {
  return resolveParams(p.options, input);
}

/** The preset as `spinlab scenarios --json` lists it (no server needed). */
export function describePreset(p: Preset) {
  return {
    id: p.id,
    name: p.name,
    post: p.post,
    /** The post it reproduces, cited: id, title, author, year, blog. */
    posts: [getPost(p.post)],
    question: p.question,
    needs: p.needs,
    defaults: { options: p.options, load: p.load, threads: p.threads },
    views: p.views,
    watch: p.watch,
  };
}

/** The plan for a server; throws when the preset cannot run there at all. */
export function planPreset(p: Preset, server: PresetServer, values: Record<string, ParamValue>, threads: number[] | null): PresetPlan {
  const plan = p.plan(server, values, threads);
  if (plan.arms.length === 0)
    throw new SpinlabError('server', `The preset ${p.id} has nothing it can run on this server. ${plan.notes.join(' ')}`);
  return plan;
}
