// The engine's stack capture as the panel's stacks feature calls it: its options, what it returns (the capture and
// every histogram slot, for the SQLCallStackResolver export), and the adapter over src/engine/stacks that the stacks
// feature uses unless a test hands in its own (LabControllerOptions.captureStacks). Apart from stacksFeature.ts so
// that PanelContext can name the type without an import circle.
import { captureStacksDetailed } from '../../../engine/stacks';
import type { ExportSlot } from '../../../engine/stacks/export';
import type { StackCapture } from '../../../shared/stacks';
import type { ServerConnection } from '../../serverView';

export interface CaptureStacksOptions {
  spinlock: string;
  durationMs: number;
  top: number;
  signal: AbortSignal;
  /** The restore journal's folder (the event session is journaled there until dropped). */
  stateDir: string;
  onProgress?: (p: { elapsedMs: number; durationMs: number }) => void;
  /** What the engine is doing, in words ('creating event session ...'), for the log. */
  onStatus?: (message: string) => void;
}

export interface CapturedStacks {
  capture: StackCapture;
  /** Every stack the histogram returned (the capture lists the top ones only); absent: export the top ones. */
  slots?: ExportSlot[];
  /** The histogram's bucket count, as the export writes it. */
  buckets?: number;
}

/** The engine's capture with the panel's connection. */
export type CaptureStacks = (conn: ServerConnection, opts: CaptureStacksOptions) => Promise<CapturedStacks>;

/** The engine's capture over the connection's target (it opens a session of its own, so an experiment's is untouched). */
export const engineCaptureStacks: CaptureStacks = async (conn, o) => {
  const d = await captureStacksDetailed(conn.target, {
    spinlock: o.spinlock,
    durationMs: o.durationMs,
    top: o.top,
    signal: o.signal,
    stateDir: o.stateDir,
    onProgress: (p) => (p.kind === 'tick' ? o.onProgress?.({ elapsedMs: p.elapsedMs, durationMs: p.durationMs }) : o.onStatus?.(p.message)),
  });
  return { capture: d.capture, slots: d.slots, buckets: d.buckets };
};
