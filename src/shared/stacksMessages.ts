// The stacks feature's messages ("Why is it spinning?", src/host/features/stacks): the webview asks the host to capture
// the call stacks of one spinlock's backoffs for a few seconds (an Extended Events session), may cancel it, and gets
// progress, the capture, or an error with the GRANT that fixes a missing permission. protocol.ts spreads these into
// ToHost / ToWebview; the webview's intents are checked against the schemas here before any handler runs.
import { z } from 'zod';
import { fromWebview, toWebview } from './messages';
import type { StackCapture } from './stacks';

/** The capture lengths the panel offers: short, because every backoff event costs a call stack while it runs. */
export const STACK_DURATIONS_MS = [5000, 10_000, 30_000] as const;
export type StackDurationMs = (typeof STACK_DURATIONS_MS)[number];

/** A spinlock type as sys.dm_os_spinlock_stats names it (LOCK_HASH, SOS_CACHESTORE, X_PACKET_LIST). */
export const spinlockNameSchema = z.string().regex(/^[A-Za-z0-9_]{1,128}$/, 'not a spinlock name (letters, digits and _)');

export const stacksCaptureSchema = z.object({
  spinlock: spinlockNameSchema,
  durationMs: z.union([z.literal(5000), z.literal(10_000), z.literal(30_000)]),
  /** Keep the capture with this saved experiment; null: with none (a watch); absent: with the live experiment, if any. */
  experimentId: z
    .string()
    .regex(/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/, 'not an experiment id')
    .nullable()
    .optional(),
});
export type StacksCaptureRequest = z.infer<typeof stacksCaptureSchema>;

/** Webview -> host. */
export const StacksToHost = {
  /** Capture the call stacks of this spinlock's backoffs for durationMs (the panel said what it does first). */
  stacksCapture: fromWebview('stacksCapture', stacksCaptureSchema),
  /** Stop the capture now: the host drops the event session and sends stacksError (cancelled). */
  stacksCancel: fromWebview('stacksCancel', z.object({})),
  /** The last capture as SQLCallStackResolver's input (histogram XML): copied, or saved where the user picks. */
  stacksExport: fromWebview('stacksExport', z.object({ to: z.enum(['clipboard', 'file']) })),
} as const;

/** Host -> webview (trusted, like the rest of ToWebview). */
export const StacksToWebview = {
  /** The capture runs: how far it is (sent when it starts and as the engine reports). */
  stacksProgress: toWebview<{ spinlock: string; elapsedMs: number; durationMs: number }>()('stacksProgress'),
  /** The capture finished (also re-sent to a reloaded webview). */
  stacksResult: toWebview<{ capture: StackCapture }>()('stacksResult'),
  /** The capture failed or was cancelled; grant: the statement that gives the missing permission. */
  stacksError: toWebview<{ spinlock: string | null; message: string; grant?: string; cancelled?: boolean }>()('stacksError'),
} as const;
