// The webview's side of the requests (shared/requests.ts): send a question, get a promise of its answer, checked
// against the request's result schema. `latest` is for a question asked again and again (the plan as settings are
// typed, two windows compared): only the newest asking counts, so a slow earlier answer that arrives after a newer
// one is dropped instead of replacing it.
import {
  answerCategory,
  type AnswerError,
  type AnyRequestType,
  type ParamsOf,
  type RequestEnvelope,
  type ResultOf,
} from '../shared/requests';
import { SpinlabError } from '../shared/spinlabError';

/** A question the host answered with a failure (in the failure's category), or whose answer the panel could not accept (internal). */
export class RequestFailed extends SpinlabError {
  constructor(readonly error: AnswerError) {
    super(answerCategory(error), error.message);
  }
}

/** How a `latest` question ended: its result, its failure, or replaced by a newer asking (nothing to show). */
export type Latest<R> = { kind: 'result'; result: R } | { kind: 'error'; error: AnswerError } | { kind: 'superseded' };

interface Pending {
  type: AnyRequestType;
  resolve(result: unknown): void;
  reject(err: RequestFailed): void;
}

export class RequestClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Per question, the id of its newest asking. */
  private readonly newest = new Map<string, number>();

  constructor(private readonly post: (envelope: RequestEnvelope) => void) {}

  /** Asks; resolves with the checked result, rejects with RequestFailed. */
  send<T extends AnyRequestType>(type: T, params: ParamsOf<T>): Promise<ResultOf<T>> {
    return this.ask(type, params).promise as Promise<ResultOf<T>>;
  }

  /** Asks `question` anew: an earlier asking of it still out resolves as superseded, whenever its answer comes. */
  async latest<T extends AnyRequestType>(question: string, type: T, params: ParamsOf<T>): Promise<Latest<ResultOf<T>>> {
    const { id, promise } = this.ask(type, params);
    this.newest.set(question, id);
    try {
      const result = (await promise) as ResultOf<T>;
      return this.newest.get(question) === id ? { kind: 'result', result } : { kind: 'superseded' };
    } catch (e) {
      if (this.newest.get(question) !== id) return { kind: 'superseded' };
      return { kind: 'error', error: e instanceof RequestFailed ? e.error : { message: String(e) } };
    }
  }

  /** Forgets the askings of a question (its answers, when they come, are superseded). */
  forget(question: string): void {
    this.newest.delete(question);
  }

  /** Takes the payload of a `response` message; false when it answers nothing asked (or asked twice). */
  receive(answer: unknown): boolean {
    const a = answer as { id?: unknown; ok?: unknown; result?: unknown; error?: unknown } | null;
    const p = a && typeof a.id === 'number' ? this.pending.get(a.id) : undefined;
    if (!a || !p) return false;
    this.pending.delete(a.id as number);
    if (a.ok === true) {
      const r = p.type.result.safeParse(a.result);
      if (r.success) p.resolve(r.data);
      else
        p.reject(
          new RequestFailed({
            message: `The extension answered ${p.type.method} with something the panel does not accept (${r.error.issues[0]?.message ?? 'invalid'}).`,
            fix: 'Reload the panel; if it happens again, report it.',
            category: 'internal',
          }),
        );
      return true;
    }
    const e = a.error as Partial<AnswerError> | undefined;
    p.reject(
      new RequestFailed({
        message: typeof e?.message === 'string' ? e.message : `${p.type.method} failed`,
        ...(typeof e?.fix === 'string' ? { fix: e.fix } : {}),
        category: answerCategory(e),
      }),
    );
    return true;
  }

  /** Questions not answered yet. */
  get outstanding(): number {
    return this.pending.size;
  }

  private ask(type: AnyRequestType, params: unknown): { id: number; promise: Promise<unknown> } {
    const id = this.nextId++;
    const promise = new Promise<unknown>((resolve, reject) => this.pending.set(id, { type, resolve, reject }));
    this.post({ type: 'request', id, method: type.method, params });
    return { id, promise };
  }
}
