// The engine's search as the panel's tune feature calls it (engine/tune's runTune); tests hand in their own.
import type { ExperimentResult } from '../../../engine/experiment';
import type { TuneOptions, TuneProgress } from '../../../engine/tune/types';

export type TuneRunner = (opts: TuneOptions, signal: AbortSignal, progress: (p: TuneProgress) => void) => Promise<ExperimentResult>;
