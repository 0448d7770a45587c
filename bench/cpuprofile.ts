// Where a Node client's CPU goes, from a V8 CPU profile (node --cpu-prof): each sample's time charged to the function
// on top of the stack (self time), grouped by who wrote the code: ours, tedious, mssql, Node's net/TLS/streams, other
// Node internals, V8 itself (GC, builtins). Idle samples are left out, so the shares are of CPU, not of wall time.
//   node out/bench/cpuprofile.js FILE.cpuprofile [--calls N]
import * as fs from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export type Bucket = 'ours' | 'tedious' | 'mssql' | 'other packages' | 'node net/tls/stream' | 'node other' | 'GC' | 'V8/native';
export const BUCKETS: Bucket[] = ['ours', 'tedious', 'mssql', 'other packages', 'node net/tls/stream', 'node other', 'GC', 'V8/native'];

export interface Breakdown {
  /** CPU time in the profile (µs), idle excluded. */
  cpuUs: number;
  byBucket: Record<Bucket, number>;
  /** The costliest functions by self time: "name (file:line)", µs. */
  top: { frame: string; bucket: Bucket; us: number }[];
}

const SOCKET_NATIVES = new Set([
  'writeBuffer',
  'writev',
  'writeUtf8String',
  'writeLatin1String',
  'writeAsciiString',
  'writeUcs2String',
  'readStart',
  'readStop',
  'onStreamRead',
  'shutdown',
]);

export function bucketOf(f: CallFrame): Bucket | 'idle' {
  const u = f.url.replace(/\\/g, '/');
  if (f.functionName === '(idle)') return 'idle';
  if (f.functionName === '(garbage collector)') return 'GC';
  if (u.includes('/node_modules/tedious/')) return 'tedious';
  if (u.includes('/node_modules/mssql/') || u.includes('/node_modules/tarn/')) return 'mssql';
  if (u.includes('/node_modules/')) return 'other packages';
  if (/^node:(net|tls|_tls_\w+|stream|dgram|internal\/(net|stream_base_commons|streams\/|tls\/|js_stream_socket))/.test(u))
    return 'node net/tls/stream';
  if (u.startsWith('node:')) return 'node other';
  // The socket's own natives (libuv writes and reads: the syscalls) have no script of their own.
  if (!u && SOCKET_NATIVES.has(f.functionName)) return 'node net/tls/stream';
  if (u.includes('/out/') || u.includes('/src/') || u.includes('/bench/')) return 'ours';
  return 'V8/native'; // (program), builtins and natives without a script
}

export function summarise(p: CpuProfile, topN = 15): Breakdown {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // timeDeltas[i] is the time from sample i-1 to sample i: the sample before it ran for that long.
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i + 1] ?? 0;
    if (dt > 0) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + dt);
  }
  const byBucket = Object.fromEntries(BUCKETS.map((b) => [b, 0])) as Record<Bucket, number>;
  const frames = new Map<string, { bucket: Bucket; us: number }>();
  let cpuUs = 0;
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    const b = bucketOf(f);
    if (b === 'idle') continue;
    cpuUs += us;
    byBucket[b] += us;
    const file = f.url ? `${f.url.replace(/^.*\/(node_modules\/|out\/)/, '$1')}:${f.lineNumber + 1}` : 'native';
    const key = `${f.functionName || '(anonymous)'} (${file})`;
    const e = frames.get(key) ?? { bucket: b, us: 0 };
    e.us += us;
    frames.set(key, e);
  }
  const top = [...frames.entries()]
    .map(([frame, e]) => ({ frame, ...e }))
    .sort((a, b) => b.us - a.us)
    .slice(0, topN);
  return { cpuUs, byBucket, top };
}

export function summariseFile(file: string, topN?: number): Breakdown {
  return summarise(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, topN);
}

if (require.main === module) {
  const file = process.argv[2];
  const calls = process.argv.includes('--calls') ? Number(process.argv[process.argv.indexOf('--calls') + 1]) : 0;
  const b = summariseFile(file, 25);
  const per = (us: number) => (calls > 0 ? ` ${(us / calls).toFixed(2)} µs/call` : '');
  console.log(`${file}: ${(b.cpuUs / 1000).toFixed(0)} ms CPU${per(b.cpuUs)}`);
  for (const k of BUCKETS)
    console.log(`  ${k.padEnd(20)} ${((100 * b.byBucket[k]) / b.cpuUs).toFixed(1).padStart(5)}%${per(b.byBucket[k])}`);
  console.log('top functions (self time):');
  for (const t of b.top) console.log(`  ${((100 * t.us) / b.cpuUs).toFixed(1).padStart(5)}%  ${t.bucket.padEnd(20)} ${t.frame}`);
}
