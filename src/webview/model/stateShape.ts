// The shape a state message must have before the panel lets it replace what it shows. The host made it, but it
// crossed VS Code's message path (which has dropped parts of it before): a state missing a part the panel draws
// from, or holding something else there, is refused rather than drawn as "not connected" and "Loading...".
// Checked loosely (only what the panel reads without asking), and the message itself is kept, not zod's copy.
import { z } from 'zod';
import type { PanelState } from '../../shared/protocol';

const list = z.array(z.unknown());
const object = z.object({}).passthrough();
const uiError = z.object({ message: z.string() }).passthrough().nullable();

const run = z
  .object({
    index: z.number().int().nonnegative(),
    threads: z.number(),
    status: z.string(),
    ticks: list,
  })
  .passthrough();

const shape = z
  .object({
    editor: z.enum(['vscode', 'azdata']),
    profiles: list,
    savedPasswords: list,
    draft: object.nullable(),
    connection: z.object({
      status: z.enum(['disconnected', 'connecting', 'connected']),
      profileId: z.string().nullable(),
      error: uiError,
    }),
    server: z
      .object({ identity: z.object({ serverName: z.string() }).passthrough() })
      .passthrough()
      .nullable(),
    journal: object.nullable(),
    runJournal: object.nullable(),
    scenarios: list,
    selection: z.object({ scenarioId: z.string(), parameters: object, run: object, knobs: object }).passthrough(),
    busy: z.string().nullable(),
    lastError: uiError,
    active: z
      .object({ status: z.string(), runs: z.array(run), events: list })
      .passthrough()
      .nullable(),
    history: list,
    presets: list,
    presetPlans: list,
    watch: z.object({ status: z.string(), marks: list, diagnosis: list, requests: list, recent: list }).passthrough().nullish(),
  })
  .passthrough();

/** The state, if it has the panel's shape; throws saying where it does not. */
export function checkStateShape(raw: unknown): PanelState {
  const r = shape.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`the state's ${issue.path.join('.') || 'whole'} is not what the panel reads (${issue.message})`);
  }
  return raw as PanelState;
}
