// The one protocol between the extension host and the panel webview. Each message is a descriptor that carries its
// payload type; both sides register a handler per message (never a switch on `any`). Messages from the webview are
// untrusted input: each has a zod schema and the host checks every message against it before any handler runs.
// The host owns the state: the webview renders PanelState snapshots (panelState.ts) and live ticks, and sends intents.
// Each feature's messages live in its own file, named feature first (`watchStart`, `stacksCapture`, `presetRun`);
// this file adds the panel's own (ready, state, toast, clipboardCopy) and spreads in one line per feature.
import { issueWords } from './issueWords';
import { z } from 'zod';
import { fromWebview, toWebview, type Envelope } from './messages';
import { STATE_TICKS, type StatePayload } from './stateSnapshot';
import { ConnectToHost } from './connectMessages';
import { ServerToHost } from './serverMessages';
import { RunToHost, RunToWebview } from './runMessages';
import { CustomToHost } from './customMessages';
import { PresetToHost } from './presetMessages';
import { HistoryToHost } from './historyMessages';
import { WatchToHost, WatchToWebview } from './watchMessages';
import { StacksToHost, StacksToWebview } from './stacksMessages';
import { TuneToHost, TuneToWebview } from './tuneMessages';
import { NowToWebview } from './nowMessages';
import type { Answer } from './requests';
import type { RevealMessage } from './reveal';
export { MessageRouter, message, type Envelope, type MessageType, type PayloadOf } from './messages';
export * from './panelState';
export type { RunTickColumns, StatePayload } from './stateSnapshot';

import { connectionProfileSchema, type ConnectionProfile } from './connectionProfile';
export { connectionProfileSchema, type ConnectionProfile };

/** Webview -> host: intents. The host validates each against its schema before its handler sees it. */
export const ToHost = {
  /** The webview has loaded (or was shown again): send a snapshot and the live run. */
  ready: fromWebview('ready', z.object({})),
  /**
   * The webview could not accept a state message (why, in `reason`): send a full snapshot again, its ticks as
   * `ticks` says (columns as usual, plain objects, or none). Asked at most three times per load (stateIntake.ts).
   */
  stateResend: fromWebview('stateResend', z.object({ ticks: z.enum(STATE_TICKS), reason: z.string().max(500) })),
  /** Put this text on the clipboard (a GRANT, a table as TSV). */
  clipboardCopy: fromWebview('clipboardCopy', z.object({ text: z.string().max(1_000_000) })),
  ...ConnectToHost,
  ...ServerToHost,
  ...RunToHost,
  ...CustomToHost,
  ...PresetToHost,
  ...HistoryToHost,
  ...WatchToHost,
  ...StacksToHost,
  ...TuneToHost,
} as const;

/** Host -> webview: state and data. Trusted (the host made them), so no schema. */
export const ToWebview = {
  /** The whole state; a full snapshot's ticks as columns beside it (stateSnapshot.ts, checked by the webview on arrival). */
  state: toWebview<StatePayload>()('state'),
  /** A short-lived notice ('copied'). */
  toast: toWebview<{ message: string }>()('toast'),
  ...RunToWebview,
  ...WatchToWebview,
  ...StacksToWebview,
  ...TuneToWebview,
  ...NowToWebview,
  /** The answer to a request (requests.ts; the questions are in panelRequests.ts). */
  response: toWebview<Answer>()('response'),
  /** Show this: switch to its section and select it (the Activity Bar's items; reveal.ts). */
  reveal: toWebview<RevealMessage>()('reveal'),
} as const;

export type ToHostMap = typeof ToHost;
export type ToWebviewMap = typeof ToWebview;
export type ToHostMessage = Envelope<ToHostMap>;
export type ToWebviewMessage = Envelope<ToWebviewMap>;

export type ParseResult = { ok: true; message: ToHostMessage } | { ok: false; error: string };

/** Checks an untrusted value from the webview: a known type, and a payload its schema accepts. */
export function parseToHost(raw: unknown): ParseResult {
  if (raw === null || typeof raw !== 'object') return { ok: false, error: 'a message must be an object' };
  const { type, payload } = raw as { type?: unknown; payload?: unknown };
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(ToHost, type)) {
    return { ok: false, error: `unknown message type ${JSON.stringify(type)?.slice(0, 64)}` };
  }
  const descriptor = ToHost[type as keyof ToHostMap];
  const r = descriptor.schema.safeParse(payload ?? {});
  if (!r.success) {
    return { ok: false, error: issueWords(type, r.error, payload ?? {}) };
  }
  return { ok: true, message: { type, payload: r.data } as ToHostMessage };
}
