// Reads the histogram target's target_data (sys.dm_xe_session_targets) for a package0.callstack source:
//   <HistogramTarget truncated="0" buckets="256"><Slot count="N"><value>frames</value></Slot>...</HistogramTarget>
// (Microsoft Learn, "Extended Events targets": histogram). The frames in <value> take one of the forms SQL Server
// writes: module+offset ("sqlmin.dll+0x00000000000A1B2C"), bare addresses ("0x00007FFEABD0D919"), symbol names when
// trace flag 3656 resolves them ("SpinlockBase::Backoff"), or, from SQL Server 2022, <frame module=... rva=.../>
// elements (escaped or in CDATA). No XML package: the shape is fixed and small, and entities are decoded here.
import type { StackFrame } from '../../shared/stacks';
import { SpinlabError } from '../../shared/spinlabError';

export interface HistogramSlot {
  count: number;
  /** The <value> text as the server wrote it (entities decoded), for the SQLCallStackResolver export. */
  raw: string;
  frames: StackFrame[];
}

export interface Histogram {
  /** The truncated attribute as sent (its meaning is not documented; kept, not interpreted). */
  truncated: number;
  buckets: number;
  slots: HistogramSlot[];
}

/** The server's histogram target is not in the shape SQL Server documents. */
export class HistogramFormatError extends SpinlabError {
  constructor(message: string) {
    super('server', message);
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e.toLowerCase()];
  });
}

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return m ? decodeXml(m[2] ?? m[3]) : null;
}

/** The text of a <value> element: CDATA sections kept verbatim, the rest entity-decoded. */
function valueText(inner: string): string {
  let out = '';
  let rest = inner;
  for (;;) {
    const i = rest.indexOf('<![CDATA[');
    if (i < 0) return out + decodeXml(rest);
    const j = rest.indexOf(']]>', i + 9);
    if (j < 0) throw new HistogramFormatError('an unterminated CDATA section in a <value>');
    out += decodeXml(rest.slice(0, i)) + rest.slice(i + 9, j);
    rest = rest.slice(j + 3);
  }
}

const MODULE_OFFSET = /^([A-Za-z0-9_.-]+?)(?:\.(?:dll|exe|so(?:\.\d+)*))?\+(0x[0-9A-Fa-f]+|[0-9A-Fa-f]+)$/;
const MODULE_OFFSET_FULL = /^([A-Za-z0-9_.-]+)\+(0x[0-9A-Fa-f]+|[0-9A-Fa-f]+)$/;
const ADDRESS = /^0x[0-9A-Fa-f]+$/;

/** One frame from its text. */
export function parseFrame(text: string): StackFrame {
  const raw = text.trim();
  if (ADDRESS.test(raw)) return { raw, module: null, offset: raw, symbol: null };
  const mo = MODULE_OFFSET_FULL.exec(raw);
  if (mo && MODULE_OFFSET.test(raw)) return { raw, module: mo[1], offset: mo[2], symbol: null };
  // module!Function+off, or a resolved name alone (trace flag 3656): the symbol is the part after '!' without an offset.
  const bang = raw.lastIndexOf('!');
  const module = bang > 0 ? raw.slice(0, bang) : null;
  const name = (bang > 0 ? raw.slice(bang + 1) : raw).replace(/\+0x[0-9A-Fa-f]+$|\+[0-9A-Fa-f]+$/, '');
  const off = /\+(0x[0-9A-Fa-f]+|[0-9A-Fa-f]+)$/.exec(raw);
  return { raw, module, offset: off ? off[1] : null, symbol: name || null };
}

/** The frames of one <value>: <frame .../> elements (2022+), else one per line, else addresses separated by blanks. */
export function parseFrames(value: string): StackFrame[] {
  if (/<frame\b/i.test(value)) {
    return [...value.matchAll(/<frame\b[^>]*\/?>/gi)].map((m) => {
      const module = attr(m[0], 'module');
      const offset = attr(m[0], 'rva') ?? attr(m[0], 'address');
      const raw = module && offset ? `${module}+${offset}` : m[0];
      return { raw, module, offset, symbol: attr(m[0], 'name') };
    });
  }
  const frames: StackFrame[] = [];
  for (const line of value.split(/\r?\n/)) {
    const t = line.trim();
    if (!t) continue;
    const words = t.split(/\s+/);
    if (words.length > 1 && words.every((w) => ADDRESS.test(w) || MODULE_OFFSET_FULL.test(w))) frames.push(...words.map(parseFrame));
    else frames.push(parseFrame(t));
  }
  return frames;
}

/** Parses target_data; null or empty text (a session that has not dispatched yet) is an empty histogram. */
export function parseHistogram(targetData: string | null): Histogram {
  const text = (targetData ?? '').trim();
  if (!text) return { truncated: 0, buckets: 0, slots: [] };
  const root = /^<HistogramTarget\b([^>]*?)(\/>|>)/.exec(text);
  if (!root) throw new HistogramFormatError(`target_data is not a <HistogramTarget> document (it starts "${text.slice(0, 40)}")`);
  const truncated = Number(attr(root[1], 'truncated') ?? 0);
  const buckets = Number(attr(root[1], 'buckets') ?? 0);
  if (root[2] === '/>') return { truncated, buckets, slots: [] };
  if (!/<\/HistogramTarget>\s*$/.test(text)) throw new HistogramFormatError('target_data ends before </HistogramTarget>');
  const slots: HistogramSlot[] = [];
  const slotRe = /<Slot\b([^>]*)>\s*<value>([\s\S]*?)<\/value>\s*<\/Slot>/g;
  for (const m of text.matchAll(slotRe)) {
    const countText = attr(m[1], 'count');
    const count = countText === null || !/^\d+$/.test(countText.trim()) ? NaN : Number(countText);
    if (!Number.isFinite(count)) throw new HistogramFormatError(`a <Slot> without a valid count (${m[1].trim()})`);
    const raw = valueText(m[2]).trim();
    slots.push({ count, raw, frames: parseFrames(raw) });
  }
  const declared = (text.match(/<Slot\b/g) ?? []).length;
  if (declared !== slots.length) throw new HistogramFormatError(`${declared - slots.length} <Slot> element(s) could not be read`);
  slots.sort((a, b) => b.count - a.count);
  return { truncated, buckets, slots };
}
