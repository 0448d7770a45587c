// Requests: questions the webview asks and the host answers once (a plan for these settings, two windows compared, a
// saved experiment). A message is an intent with no answer; a request names its params schema (the host checks what
// the webview sends) and its result schema (the webview checks what the host answers), and carries an id the answer
// repeats, so the asker can tell which question an answer belongs to and drop one a newer question replaced.
// Wire: webview -> host `{ type: 'request', id, method, params }`; host -> webview the `response` message, whose
// payload is `{ id, ok: true, result }` or `{ id, ok: false, error }`.
import { issueWords } from './issueWords';
import type { z } from 'zod';
import { ERROR_CATEGORIES, type ErrorCategory } from './spinlabError';

/** A question: its method name, what it asks with, and what it is answered with. */
export interface RequestType<K extends string, P, R> {
  readonly method: K;
  readonly params: z.ZodType<P>;
  readonly result: z.ZodType<R>;
}

export function request<K extends string, PS extends z.ZodType, RS extends z.ZodType>(
  method: K,
  params: PS,
  result: RS,
): RequestType<K, z.infer<PS>, z.infer<RS>> {
  return { method, params, result } as RequestType<K, z.infer<PS>, z.infer<RS>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the type parameters are read back by ParamsOf/ResultOf
export type AnyRequestType = RequestType<string, any, any>;
export type ParamsOf<T> = T extends RequestType<string, infer P, unknown> ? P : never;
export type ResultOf<T> = T extends RequestType<string, unknown, infer R> ? R : never;

/** Why a question got no result, as the panel shows it (the shape of protocol.ts' UiError), and its error category. */
export interface AnswerError {
  message: string;
  fix?: string;
  category?: ErrorCategory;
}

/** webview -> host. */
export interface RequestEnvelope {
  type: 'request';
  id: number;
  method: string;
  params: unknown;
}

/** host -> webview: the payload of the `response` message. */
export type Answer<R = unknown> = { id: number; ok: true; result: R } | { id: number; ok: false; error: AnswerError };

export function isRequestEnvelope(raw: unknown): raw is { type: 'request' } {
  return raw !== null && typeof raw === 'object' && (raw as { type?: unknown }).type === 'request';
}

/**
 * The host's side: one handler per request type. `answer` takes the untrusted envelope, checks it (a known method,
 * params its schema accepts) and returns the answer to post; a handler's failure is an answer too (ok: false), so
 * the asker is never left waiting. Null only for an envelope without a usable id (nobody to answer).
 */
export class RequestRouter<Map extends Record<string, AnyRequestType>> {
  private readonly handlers = new Map<string, { type: AnyRequestType; fn: (params: unknown) => unknown }>();

  constructor(private readonly types: Map) {}

  on<K extends keyof Map & string>(t: Map[K], fn: (params: ParamsOf<Map[K]>) => ResultOf<Map[K]> | Promise<ResultOf<Map[K]>>): this {
    if (this.handlers.has(t.method)) throw new Error(`a handler for the request ${t.method} is already registered`);
    this.handlers.set(t.method, { type: t, fn: fn as (params: unknown) => unknown });
    return this;
  }

  /** Checks an envelope: its id, its method and its params; `error` says what is wrong, in words. */
  parse(raw: unknown): { ok: true; id: number; method: string; params: unknown } | { ok: false; id: number | null; error: string } {
    const env = (raw ?? {}) as Partial<RequestEnvelope>;
    const id = Number.isSafeInteger(env.id) && (env.id as number) >= 0 ? (env.id as number) : null;
    if (id === null) return { ok: false, id, error: 'a request needs a whole-number id' };
    const method = typeof env.method === 'string' ? env.method : '';
    if (!Object.prototype.hasOwnProperty.call(this.types, method) || !this.handlers.has(method)) {
      return { ok: false, id, error: `unknown request ${JSON.stringify(env.method)?.slice(0, 64)}` };
    }
    const r = this.handlers.get(method)!.type.params.safeParse(env.params ?? {});
    if (!r.success) return { ok: false, id, error: issueWords(method, r.error, env.params ?? {}) };
    return { ok: true, id, method, params: r.data };
  }

  /** The answer to an untrusted envelope; never throws (a failure becomes `error` through toError). */
  async answer(raw: unknown, toError: (err: unknown) => AnswerError): Promise<Answer | null> {
    const p = this.parse(raw);
    if (!p.ok) {
      if (p.id === null) return null;
      return {
        id: p.id,
        ok: false,
        error: {
          message: `The panel asked a question the extension does not accept (${p.error}).`,
          fix: 'Reload the panel; if it happens again, report it.',
          category: 'internal',
        },
      };
    }
    try {
      const result = await this.handlers.get(p.method)!.fn(p.params);
      return { id: p.id, ok: true, result };
    } catch (err) {
      return { id: p.id, ok: false, error: toError(err) };
    }
  }
}

/** The category an answer's error names, when it names one the panel knows; otherwise a bug (internal). */
export function answerCategory(e: { category?: unknown } | undefined): ErrorCategory {
  const c = e?.category;
  return typeof c === 'string' && (ERROR_CATEGORIES as readonly string[]).includes(c) ? (c as ErrorCategory) : 'internal';
}
