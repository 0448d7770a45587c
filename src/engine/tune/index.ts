// A tune: a budgeted, noise-aware search of the knobs for the settings that serve an objective best (run.ts).
export { runTune } from './run';
export type { TuneOptions, TuneProgress } from './types';
export { buildSpace, affinityOptions, DEFAULT_BATCH_SIZES } from './space';
