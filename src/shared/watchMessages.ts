// The watch feature's messages (src/host/features/watch): a read-only watch of the connected server started and
// stopped, marks, the benign waits shown or hidden, a notebook, two windows compared; and each tick as it comes.
import { z } from 'zod';
import { fromWebview, toWebview } from './messages';
import type { WatchTick } from './watch';
import { watchCompareSchema, type WatchWindowComparison } from './watchWindows';
import { request } from './requests';

/** Webview -> host. */
export const WatchToHost = {
  /** Start a read-only watch of the connected server. */
  watchStart: fromWebview(
    'watchStart',
    z.object({ intervalMs: z.union([z.literal(1000), z.literal(500), z.literal(250)]), showBenign: z.boolean() }),
  ),
  watchStop: fromWebview('watchStop', z.object({})),
  /** Show or hide the benign waits in the watch's wait figures. */
  watchBenign: fromWebview('watchBenign', z.object({ show: z.boolean() })),
  /** Drop a named mark into the running watch ("index rebuilt"). */
  watchMark: fromWebview('watchMark', z.object({ name: z.string().trim().min(1, 'a mark needs a name').max(200) })),
  /** Save the watch as a Jupyter notebook (the host asks where). */
  watchSaveNotebook: fromWebview('watchSaveNotebook', z.object({})),
} as const;

/** Host -> webview. */
export const WatchToWebview = {
  /** One tick of the running watch. */
  watchTick: toWebview<{ watchId: string; tick: WatchTick }>()('watchTick'),
} as const;

const windowSpanSchema = z.object({
  label: z.string(),
  described: z.string(),
  fromT: z.number(),
  toT: z.number(),
  ticks: z.number(),
  seconds: z.number(),
});
const watchWindowComparisonSchema: z.ZodType<WatchWindowComparison> = z.object({
  a: windowSpanSchema,
  b: windowSpanSchema,
  figures: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      unit: z.string(),
      a: z.number().nullable(),
      b: z.number().nullable(),
      changePct: z.number().nullable(),
      direction: z.enum(['higher-better', 'lower-better']),
      note: z.string().optional(),
    }),
  ),
  summary: z.array(z.string()),
});

/** Webview asks, host answers. */
export const WatchRequests = {
  /** Window A against window B of the panel's watch, from every tick on disk; a window the watch cannot answer is the error. */
  watchCompare: request('watchCompare', watchCompareSchema, watchWindowComparisonSchema),
} as const;
