// The host's side of the panel's requests (shared/requests.ts): each question checked against its params schema,
// handed to its handler, and always answered, with the result or with the failure as the panel shows it (uiErrors.ts).
// A failed question is the asker's to show where it asked (beside the window pickers, in the plan), so it is logged
// but not made the panel's lastError.
import { message, ToWebview } from '../shared/protocol';
import { PanelRequests, type PanelRequestMap } from '../shared/panelRequests';
import { RequestRouter, type AnswerError, type ParamsOf, type ResultOf } from '../shared/requests';
import type { HostPorts } from './ports';
import { toUiError } from './uiErrors';
import { categoryOf } from '../shared/spinlabError';

function answerError(err: unknown): AnswerError {
  const ui = toUiError(err);
  const category = categoryOf(err);
  return ui.fix ? { message: ui.message, fix: ui.fix, category } : { message: ui.message, category };
}

export class HostRequests {
  private readonly router = new RequestRouter<PanelRequestMap>(PanelRequests);

  /** `unanswerable`: an envelope with no id to answer to (reported as a rejected message is). */
  constructor(
    private readonly ports: HostPorts,
    private readonly closed: () => boolean,
    private readonly unanswerable: (error: string) => void,
  ) {}

  on<K extends keyof PanelRequestMap & string>(
    k: K,
    fn: (p: ParamsOf<PanelRequestMap[K]>) => ResultOf<PanelRequestMap[K]> | Promise<ResultOf<PanelRequestMap[K]>>,
  ): this {
    this.router.on(PanelRequests[k], fn);
    return this;
  }

  /** Answers one request from the webview; never throws. */
  async answer(raw: unknown): Promise<void> {
    const answer = await this.router.answer(raw, answerError);
    if (!answer) {
      const p = this.router.parse(raw);
      const error = p.ok ? 'no id' : p.error;
      this.ports.log.warn(`rejected a request from the webview: ${error}`);
      this.unanswerable(error);
      return;
    }
    if (!answer.ok) this.ports.log.warn(`answered a request with a failure: ${answer.error.message}`);
    if (!this.closed()) this.ports.post(message(ToWebview.response, answer));
  }
}
