// The message machinery under protocol.ts: a message descriptor carries its payload type (and, from the webview, the
// zod schema the host checks it against); MessageRouter runs one handler per message, on both sides.
import type { z } from 'zod';

/** A message type with its payload type; `schema` is present for messages the host must validate. */
export interface MessageType<K extends string, P> {
  readonly type: K;
  readonly schema?: z.ZodType;
  /** Type-level only: the payload. */
  readonly _payload?: P;
}

/** A webview -> host message: its schema is required, because the host trusts nothing from the webview. */
export interface CheckedMessageType<K extends string, P> extends MessageType<K, P> {
  readonly schema: z.ZodType;
}

export function fromWebview<K extends string, S extends z.ZodType>(type: K, schema: S): CheckedMessageType<K, z.infer<S>> {
  return { type, schema };
}
export function toWebview<P>() {
  return <K extends string>(type: K): MessageType<K, P> => ({ type });
}

export type PayloadOf<M> = M extends MessageType<string, infer P> ? P : never;
export type Envelope<Map> = { [K in keyof Map]: { type: K; payload: PayloadOf<Map[K]> } }[keyof Map];

/** Builds a message for postMessage with its payload checked by the compiler. */
export function message<K extends string, P>(m: MessageType<K, P>, payload: P): { type: K; payload: P } {
  return { type: m.type, payload };
}

/** Per-message handler registry used on both sides. */
export class MessageRouter<Map extends Record<string, MessageType<string, unknown>>> {
  private readonly handlers = new Map<string, (payload: unknown) => unknown>();

  on<K extends keyof Map & string>(m: Map[K], handler: (payload: PayloadOf<Map[K]>) => unknown): this {
    if (this.handlers.has(m.type)) throw new Error(`a handler for ${m.type} is already registered`);
    this.handlers.set(m.type, handler as (payload: unknown) => unknown);
    return this;
  }

  /** Runs the handler for an already-validated message; returns its result (a promise for async handlers). */
  dispatch(msg: { type: string; payload: unknown }): unknown {
    const h = this.handlers.get(msg.type);
    if (!h) throw new Error(`no handler for ${msg.type}`);
    return h(msg.payload);
  }

  has(type: string): boolean {
    return this.handlers.has(type);
  }
}
