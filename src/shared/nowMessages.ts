// The Now view's message (src/host/features/now): the host's compact picture of "what is wrong on this server right
// now", sent about once a second while the panel is connected and visible, and again after `ready`. The webview
// checks it against the schema here on arrival and keeps the last good one, so a malformed update never blanks it.
// Its next steps use the panel's existing intents (watchStart, stacksCapture, the Presets form), so none is new here.
import { z } from 'zod';
import { toWebview } from './messages';
import type { NowKind, Trend } from './nowHistory';
import type { NowStep } from './nowSteps';

export interface NowItemView {
  kind: NowKind;
  name: string;
  /** Server-wide, per second, over the window: spins/s, or ms waited per second. */
  perSec: number;
  unit: 'spins/s' | 'ms/s';
  backoffsPerSec: number | null;
  trend: Trend;
  trendText: string;
}

export interface NowFinding {
  key: string;
  kind: NowKind;
  name: string;
  /** Words first: "LOGCACHE_ACCESS: 1,200,000 spins/s (3,400 backoffs/s), 4x its hour's median". */
  text: string;
  /** Where it comes from: server-wide, the window, the threshold, what it usually means. */
  evidence: string;
  steps: NowStep[];
}

export interface NowView {
  /** idle: not connected; reading: before the first delta; live; paused: the panel is hidden; error: see error. */
  status: 'idle' | 'reading' | 'live' | 'paused' | 'error';
  serverName: string | null;
  headline: string;
  findings: NowFinding[];
  spinlocks: NowItemView[];
  waits: NowItemView[];
  latches: NowItemView[];
  /** Seconds of server time behind the ranks (up to 60). */
  windowSec: number;
  /** When the history behind the trends starts (ISO), and whether it is a whole hour. */
  since: string | null;
  fullHour: boolean;
  /** When the figures were read (ISO, this machine's clock). */
  updatedAt: string | null;
  error: { message: string; grant?: string } | null;
}

const kind = z.enum(['spinlock', 'wait', 'latch']);
const figure = z.number().finite().min(0);
const item = z.object({
  kind,
  name: z.string().max(256),
  perSec: figure,
  unit: z.enum(['spins/s', 'ms/s']),
  backoffsPerSec: figure.nullable(),
  trend: z.enum(['rising', 'falling', 'steady', 'new', 'unknown']),
  trendText: z.string().max(500),
});
const step = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('watch'), label: z.string().max(300) }),
  z.object({ kind: z.literal('stacks'), label: z.string().max(300), spinlock: z.string().regex(/^[A-Za-z0-9_]{1,128}$/) }),
  z.object({ kind: z.literal('preset'), label: z.string().max(300), presetId: z.string().regex(/^[a-z0-9-]{1,64}$/) }),
  z.object({
    kind: z.literal('post'),
    label: z.string().max(300),
    url: z
      .string()
      .regex(/^https:\/\//)
      .max(1000),
    cite: z.string().max(500),
  }),
]);

export const nowViewSchema: z.ZodType<NowView> = z.object({
  status: z.enum(['idle', 'reading', 'live', 'paused', 'error']),
  serverName: z.string().max(512).nullable(),
  headline: z.string().max(2000),
  findings: z
    .array(
      z.object({
        key: z.string().max(300),
        kind,
        name: z.string().max(256),
        text: z.string().max(2000),
        evidence: z.string().max(2000),
        steps: z.array(step).max(8),
      }),
    )
    .max(20),
  spinlocks: z.array(item).max(20),
  waits: z.array(item).max(20),
  latches: z.array(item).max(20),
  windowSec: figure,
  since: z.string().max(40).nullable(),
  fullHour: z.boolean(),
  updatedAt: z.string().max(40).nullable(),
  error: z.object({ message: z.string().max(4000), grant: z.string().max(1000).optional() }).nullable(),
});

/** The Now view before a connection. */
export const NOW_IDLE: NowView = {
  status: 'idle',
  serverName: null,
  headline: 'Connect to a server to see what is wrong on it right now.',
  findings: [],
  spinlocks: [],
  waits: [],
  latches: [],
  windowSec: 0,
  since: null,
  fullHour: false,
  updatedAt: null,
  error: null,
};

/** Host -> webview. */
export const NowToWebview = {
  /** The Now view as of now (checked by the webview on arrival against nowViewSchema). */
  nowUpdate: toWebview<{ now: NowView }>()('nowUpdate'),
} as const;
