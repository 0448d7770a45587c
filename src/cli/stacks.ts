// spinlab stacks: capture the call stacks behind one spinlock's backoffs with an Extended Events session of Spinlock
// Lab's own (dropped afterwards, journaled meanwhile), print the top stacks and their shared prefixes, and optionally
// save them as JSON or as SQLCallStackResolver's histogram XML input.
import * as fs from 'node:fs';
import type { Command } from 'commander';
import { parseDuration } from '../shared/params';
import { lossSummary, lostAny, type StackCapture } from '../shared/stacks';
import { defaultStateDir } from '../engine/journal';
import {
  addStacksToExperiment,
  captureStacksDetailed,
  frameLabel,
  isSpinlockName,
  toCallStackResolverXml,
  treeText,
  type CaptureProgress,
} from '../engine/stacks';
import { targetFromArgs, UsageError } from './commands';
import { precheckStacks } from './stacksCheck';

type WithCancel = <T>(err: (s: string) => void, task: (signal: AbortSignal) => Promise<T>, what?: string) => Promise<T>;

interface StacksArgs {
  connection?: string;
  spinlock: string;
  duration: string;
  top: string;
  json?: boolean;
  export?: string;
  slots: string;
  addTo?: string;
  run?: string;
  anyName?: boolean;
  force?: boolean;
}

/** The capture as text for a terminal. */
export function stacksText(c: StackCapture): string {
  const lines: string[] = [];
  if (c.simulated) lines.push('SIMULATED: the Spinlock Lab simulator; every frame and count below is synthetic.');
  lines.push(
    `${c.spinlock} (spinlock_types map_key ${c.mapKey}): ${c.events} sqlos.spinlock_backoff events in ${(c.durationMs / 1000).toFixed(1)} s; sys.dm_os_spinlock_stats backoffs over the same window: ${c.dmvBackoffs ?? 'unknown'}`,
  );
  const loss = lossSummary(c);
  if (loss) lines.push(`${lostAny(c) ? 'EVENTS LOST: ' : 'Lost: '}${loss}`);
  lines.push('');
  if (!c.buckets.length) lines.push('No stacks: no event fired (see the notes).');
  c.buckets.forEach((b, i) => {
    lines.push(`#${i + 1}  ${(100 * b.share).toFixed(1)}%  ${b.count} events`);
    for (const f of b.frames) lines.push(`      ${frameLabel(f)}`);
  });
  if (c.otherCount > 0) lines.push(`(+ ${c.otherCount} events in stacks beyond the top ${c.buckets.length})`);
  const tree = treeText(c.tree);
  if (tree.length) {
    lines.push('', 'Shared callers (outermost first; branches of 5% or more):');
    lines.push(...tree.map((l) => `  ${l}`));
  }
  lines.push('', 'Notes:', ...c.notes.map((n) => `- ${n}`));
  lines.push('', `Event session ${c.session} was dropped.`);
  return lines.join('\n') + '\n';
}

export function addStacksCommand(
  program: Command,
  out: (s: string) => void,
  err: (s: string) => void,
  setExit: (code: number) => void,
  withCancel: WithCancel,
): void {
  program
    .command('stacks')
    .description(
      "capture the call stacks behind a spinlock's backoffs (Extended Events: sqlos.spinlock_backoff with package0.callstack into a histogram; needs ALTER ANY EVENT SESSION and VIEW SERVER STATE)",
    )
    .option('-c, --connection <string>', 'ADO.NET connection string (or SPINLAB_CONNECTION; password may come from SPINLAB_PASSWORD)')
    .requiredOption('--spinlock <name>', 'the spinlock type, as sys.dm_os_spinlock_stats names it (e.g. LOGCACHE_ACCESS, XDESMGR)')
    .option('--duration <time>', 'how long to capture (e.g. 5s, 30s)', '30s')
    .option('--top <n>', 'stacks listed (the rest are summed)', '10')
    .option('--slots <n>', "histogram buckets, 16 to 16384 (the target's default is 256)", '256')
    .option('--json', 'print the capture as JSON (src/shared/stacks.ts StackCapture)')
    .option(
      '--export <file>',
      'also write every stack as SQLCallStackResolver input (histogram XML, one frame per line): a new file (see --force)',
    )
    .option('--force', 'replace an existing --export file')
    .option('--add-to <dir>', 'also save the capture in a finished experiment (its experiment.json; the notebook export shows it)')
    .option(
      '--run <n>',
      'with --add-to: attach it to this run, numbered from 1 as spinlab run printed it ("run 2/6" is 2), instead of the experiment',
    )
    .option('--any-name', 'accept a spinlock name Spinlock Lab does not list (names differ between versions; the server still checks it)')
    .action(async (o: StacksArgs) => setExit(await stacksCommand(o, out, err, withCancel)));
}

async function stacksCommand(o: StacksArgs, out: (s: string) => void, err: (s: string) => void, withCancel: WithCancel): Promise<number> {
  const durationMs = parseDuration(o.duration);
  if (durationMs < 1000) throw new UsageError(`--duration must be 1s or more, not ${o.duration}.`);
  const top = Number(o.top);
  if (!Number.isInteger(top) || top < 1 || top > 1000) throw new UsageError(`--top must be a whole number from 1 to 1000, not "${o.top}".`);
  const slots = Number(o.slots);
  if (!Number.isInteger(slots) || slots < 16 || slots > 16384)
    throw new UsageError(`--slots must be a whole number from 16 to 16384, not "${o.slots}".`);
  if (!isSpinlockName(o.spinlock)) throw new UsageError(`--spinlock takes a spinlock name such as LOGCACHE_ACCESS, not "${o.spinlock}".`);
  precheckStacks(o);
  // Runs are numbered from 1 where they are shown; the record keeps an index from 0.
  const runIndex = o.run === undefined ? undefined : Number(o.run) - 1;
  const target = targetFromArgs(o.connection);
  // The progress line is rewritten in place (\r); it is ended before anything else is written, however the capture ends.
  let lineOpen = false;
  const endLine = () => {
    if (lineOpen) err('\n');
    lineOpen = false;
  };
  const detail = await withCancel(
    err,
    (signal) =>
      captureStacksDetailed(target, {
        spinlock: o.spinlock,
        durationMs,
        top,
        slots,
        signal,
        stateDir: process.env.SPINLAB_STATE_DIR ?? defaultStateDir(),
        onProgress: (p: CaptureProgress) => {
          if (p.kind === 'status') {
            endLine();
            err(`${p.message}\n`);
          } else {
            err(`\rcapturing ${(Math.min(p.durationMs, p.elapsedMs) / 1000) | 0} / ${(p.durationMs / 1000).toFixed(0)} s`);
            lineOpen = true;
          }
        },
      }),
    'ending the capture and dropping the event session',
  ).finally(endLine);
  const c = detail.capture;
  out(o.json ? JSON.stringify(c, null, 2) + '\n' : stacksText(c));
  if (o.export) {
    // Checked before the capture; one that appeared since is not replaced either (without --force).
    fs.writeFileSync(o.export, toCallStackResolverXml(detail.slots, detail.buckets), { flag: o.force ? 'w' : 'wx' });
    out(`Saved ${o.export} (SQLCallStackResolver input: ${detail.slots.length} stacks as histogram XML)\n`);
  }
  if (o.addTo) out(`Added to ${addStacksToExperiment(o.addTo, c, runIndex)}${o.run !== undefined ? `, run ${o.run}` : ''}\n`);
  return 0;
}
