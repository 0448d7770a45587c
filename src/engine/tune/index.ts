// A tune: a budgeted, noise-aware search of the knobs for the settings that serve an objective best (run.ts).
export { runTune } from './run';
export type { TuneProgress } from './types';
