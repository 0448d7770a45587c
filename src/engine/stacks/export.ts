// The capture as SQLCallStackResolver input. Its README (github.com/microsoft/SQLCallStackResolver, "Usage") lists the
// inputs it takes, among them "Multiple call stacks in Histogram XML markup" and single stacks "in module+offset
// notation": so the export is the histogram target's own document shape, <HistogramTarget truncated="0"
// buckets="N"><Slot count="C"><value>frames</value></Slot>...</HistogramTarget>, each frame on its own line exactly
// as the server wrote it (module+offset, an address, or a name), ready to paste or open in the tool.
import type { StackFrame } from '../../shared/stacks';

export interface ExportSlot {
  count: number;
  frames: StackFrame[];
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Histogram XML for SQLCallStackResolver: one <Slot> per stack, largest first, one frame per line in <value>. */
export function toCallStackResolverXml(slots: ExportSlot[], buckets = slots.length): string {
  const lines = [`<HistogramTarget truncated="0" buckets="${Math.max(buckets, slots.length)}">`];
  for (const s of [...slots].sort((a, b) => b.count - a.count)) {
    lines.push(`<Slot count="${Math.round(s.count)}"><value>${s.frames.map((f) => escapeXml(f.raw)).join('\n')}</value></Slot>`);
  }
  lines.push('</HistogramTarget>');
  return lines.join('\n') + '\n';
}
