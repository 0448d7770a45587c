// The engine's stack capture as the panel's host calls it (issue #18): its options and the function the controller
// holds (LabControllerOptions.captureStacks; tests hand in their own). Apart from stacksPath.ts so that LabSession
// can name the type without an import circle.
import { SpinlabError } from '../engine/errors';
import type { StackCapture } from '../shared/stacks';
import type { ServerConnection } from './serverView';

export interface CaptureStacksOptions {
  spinlock: string;
  durationMs: number;
  top: number;
  signal: AbortSignal;
  onProgress?: (p: { elapsedMs: number; durationMs: number }) => void;
}

/** The engine's capture (src/engine/stacks) with the panel's connection. */
export type CaptureStacks = (conn: ServerConnection, opts: CaptureStacksOptions) => Promise<StackCapture>;

/** Until the engine's capture is in this build, the panel says so rather than failing somewhere deeper. */
export const captureNotAvailable: CaptureStacks = () =>
  Promise.reject(new SpinlabError('Capturing call stacks is not in this build of Spinlock Lab yet.', 'use `spinlab stacks` from a build that has it.'));
