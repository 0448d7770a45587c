// The panel webview's entry: the VS Code API, one handler per host message (protocol.ts MessageRouter over
// ToWebview; `response` answers a question the panel asked, requests.ts), and `ready` on load and whenever the panel
// is shown again.
import './zodConfig';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { MessageRouter, ToHost, ToWebview, type ToWebviewMap } from '../shared/protocol';
import { render } from 'lit';
import { App, type VsCodeApi } from './app';
import { StateIntake } from './stateIntake';
import { stateNoticeView } from './views/stateNotice';

declare function acquireVsCodeApi(): VsCodeApi;

function rootElement(): HTMLElement {
  const existing = document.getElementById('app');
  if (existing) return existing;
  const div = document.createElement('div');
  div.id = 'app';
  document.body.append(div);
  return div;
}

const api = acquireVsCodeApi();
const root = rootElement();
const app = new App(api, root);

/** The notice of a refused state: beside the panel's template, not in it, so it shows when drawing failed. */
const noticeSlot = document.createElement('div');
noticeSlot.id = 'state-notice-slot';
root.before(noticeSlot);

// A state message is drawn at once, so a state the template throws on is refused here, not in a later frame.
const intake: StateIntake = new StateIntake({
  current: () => app.state,
  apply: (state, ticks) => {
    app.onState(state, ticks);
    app.renderNow();
  },
  restore: (state) => {
    app.state = state;
    app.renderNow();
  },
  ask: (ticks, reason) => app.post(ToHost.stateResend, { ticks, reason }),
  changed: () => render(stateNoticeView(intake), noticeSlot),
});

const router = new MessageRouter<ToWebviewMap>()
  .on<'state'>(ToWebview.state, (p) => intake.receive(p))
  .on<'runStart'>(ToWebview.runStart, (p) => app.onRunStart(p))
  .on<'runTick'>(ToWebview.runTick, (p) => app.onTick(p))
  .on<'runEnd'>(ToWebview.runEnd, (p) => app.onRunEnd(p))
  .on<'toast'>(ToWebview.toast, (p) => app.onToast(p.message))
  .on<'watchTick'>(ToWebview.watchTick, (p) => app.onWatchTick(p))
  .on<'tuneProgress'>(ToWebview.tuneProgress, (p) => app.onTuneProgress(p))
  .on<'stacksProgress'>(ToWebview.stacksProgress, (p) => app.onStacksProgress(p))
  .on<'stacksResult'>(ToWebview.stacksResult, (p) => app.onStacksResult(p.capture))
  .on<'stacksError'>(ToWebview.stacksError, (p) => app.onStacksError(p))
  .on<'response'>(ToWebview.response, (p) => app.questions.client.receive(p))
  .on<'reveal'>(ToWebview.reveal, (p) => app.onReveal(p))
  .on<'nowUpdate'>(ToWebview.nowUpdate, (p) => app.now.update(p));

window.addEventListener('message', (event: MessageEvent) => {
  const msg = event.data as { type?: unknown; payload?: unknown } | null;
  if (!msg || typeof msg.type !== 'string' || !router.has(msg.type)) return;
  router.dispatch({ type: msg.type, payload: msg.payload });
});

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') app.post(ToHost.ready, {});
});

app.renderNow();
app.post(ToHost.ready, {});
