// What VS Code does to a message between `webview.postMessage` in the extension host and the webview's `message`
// event, re-implemented from reading VS Code 1.100 (extHostWebviewMessaging.ts, rpcProtocol.ts, webviewElement.ts,
// pre/index.html) so a test can send the state message over the same path:
// 1. the extension host JSON-stringifies the message; each ArrayBuffer, and each typed array (recognised by its
//    constructor's name), becomes a reference to one entry in a list of distinct buffers (a typed array keeps its
//    byteOffset and byteLength: a view onto a larger buffer sends the whole buffer);
// 2. the RPC to the renderer carries (handle, json, ...buffers) as a "mixed array" whose argument count is written in
//    ONE byte: past 255 arguments the count wraps and the receiver reads only that many, silently;
// 3. the renderer copies each buffer into a fresh ArrayBuffer and revives each reference as a view onto its buffer
//    (a missing buffer revives as `new Float64Array(undefined, ...)`: an empty array);
// 4. the renderer posts { message, transfer } to the outer webview frame (cloned), which posts the message into the
//    content frame with the buffers in the transfer list (structured clone with transfer).

const VIEW_TYPES = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
] as const;
type ViewType = (typeof VIEW_TYPES)[number];
const REF = '$$vscode_array_buffer_reference$$';

interface Ref {
  [REF]: true;
  index: number;
  view?: { type: number; byteOffset: number; byteLength: number };
}

export interface Serialized {
  json: string;
  buffers: Uint8Array[];
}

/** Step 1, the extension host's side. */
export function serializeForWebview(message: unknown): Serialized {
  const buffers: ArrayBufferLike[] = [];
  const indexOf = (b: ArrayBufferLike): number => {
    const i = buffers.indexOf(b);
    return i >= 0 ? i : buffers.push(b) - 1;
  };
  const json = JSON.stringify(message, (_key, value: unknown) => {
    if (value instanceof ArrayBuffer) return { [REF]: true, index: indexOf(value) } satisfies Ref;
    if (ArrayBuffer.isView(value)) {
      const type = VIEW_TYPES.findIndex((t) => t.name === value.constructor.name);
      if (type >= 0)
        return {
          [REF]: true,
          index: indexOf(value.buffer),
          view: { type, byteOffset: value.byteOffset, byteLength: value.byteLength },
        } satisfies Ref;
    }
    return value;
  });
  return { json, buffers: buffers.map((b) => new Uint8Array(b)) };
}

/** Step 2: the arguments the renderer reads when the host sent `args` (the count travels in one byte). */
export function rpcMixedArgs<T>(args: readonly T[]): T[] {
  return args.slice(0, args.length & 0xff);
}

/** Step 3, the renderer's side: the message revived, and the buffers it will transfer. */
export function deserializeInRenderer(json: string, received: readonly Uint8Array[]): { message: unknown; transfer: ArrayBuffer[] } {
  const transfer = received.map((bytes) => {
    const ab = new ArrayBuffer(bytes.byteLength);
    new Uint8Array(ab).set(bytes);
    return ab;
  });
  const revive = (_key: string, value: unknown): unknown => {
    if (!value || typeof value !== 'object' || !(value as Ref)[REF]) return value;
    const ref = value as Ref;
    const buffer = transfer[ref.index];
    if (!ref.view) return buffer;
    const T: ViewType = VIEW_TYPES[ref.view.type];
    return new T(buffer as ArrayBuffer, ref.view.byteOffset, ref.view.byteLength / T.BYTES_PER_ELEMENT);
  };
  return { message: received.length ? JSON.parse(json, revive) : JSON.parse(json), transfer };
}

/** The whole path: what the webview's `message` event holds, and how many buffers the message needed. */
export function throughVsCode(message: unknown): { data: unknown; buffers: number } {
  const s = serializeForWebview(message);
  const args = rpcMixedArgs<string | Uint8Array>(['webview-handle', s.json, ...s.buffers]);
  const { message: revived, transfer } = deserializeInRenderer(args[1] as string, args.slice(2) as Uint8Array[]);
  // Step 4: the hop into the outer frame is a clone; the hop into the content frame transfers the buffers.
  const outer = structuredClone({ message: revived, transfer });
  return { data: structuredClone(outer.message, { transfer: outer.transfer }), buffers: s.buffers.length };
}
