// Run progress on stderr: one redrawn line on a terminal, plain lines otherwise (CI logs, pipes). `runs` counts every
// run of the experiment (arms x thread counts x repetitions); with repetitions, each line says which one it is.
import type { ExperimentProgress } from '../engine/experiment';
import { runFigures } from '../shared/analysis';
import { figureText } from '../shared/numberText';
import { plural } from '../shared/plural';

export class Progress {
  private readonly tty: boolean;
  private line = '';
  private runStart = 0;
  private threads = 0;
  private run = 0;
  private label = '';

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly runs: number,
    private readonly measuredMs: number | null,
    private readonly repeat = 1,
    /** --repeat auto: `runs` and `repeat` are the most there may be. */
    private readonly upTo = false,
  ) {
    this.tty = !!stream.isTTY;
  }

  update(p: ExperimentProgress): void {
    switch (p.kind) {
      case 'status':
        this.say(p.message);
        break;
      case 'event':
        this.say(`${p.event.level}: ${p.event.message}`, true);
        break;
      case 'run-start':
        this.run = p.run;
        this.threads = p.threads;
        this.label = this.what(p.threads, p.repetition, p.arm?.id === 'main' ? undefined : p.arm?.id);
        this.runStart = Date.now();
        break;
      case 'tick': {
        const top = Object.entries(p.tick.spinlocks).sort((a, b) => b[1].spins - a[1].spins)[0];
        const frac = this.measuredMs ? Math.min(1, (Date.now() - this.runStart) / this.measuredMs) : 0;
        const bar = this.measuredMs ? `[${'#'.repeat(Math.round(frac * 20)).padEnd(20)}] ` : '';
        this.say(
          `run ${this.run + 1}/${this.of()} (${this.label || plural(this.threads, 'thread')}) ${bar}${Math.round(p.tick.rowsPerSec).toLocaleString('en-US')}/s` +
            (top ? `, ${top[0]} ${Math.round(top[1].spins / (p.tick.intervalMs / 1000)).toLocaleString('en-US')} spins/s` : '') +
            (p.tick.gap ? ' (after a gap)' : ''),
        );
        break;
      }
      case 'run-end': {
        // The figure is over the run's steady window: say when a run was still settling after the warm-up.
        const s = p.record.steady;
        const settled = s && s.droppedTicks > 0 ? ` (steady after ${figureText((s.warmupMs + s.droppedMs) / 1000)} s)` : '';
        this.say(
          `run ${p.record.index + 1}/${this.of()}: ${this.what(p.record.threads, p.record.repetition, p.record.arm.id === 'main' ? undefined : p.record.arm.id)} ${p.record.status}, ${figureText(runFigures(p.record).rowsPerSec)}/s${settled}`,
          true,
        );
        break;
      }
    }
  }

  private of(): string {
    return this.upTo ? `${this.runs} at most` : String(this.runs);
  }

  /** "1 thread", "lw-node, 4 threads, repetition 2/3". */
  private what(threads: number, repetition: number | undefined, arm: string | undefined): string {
    return [
      arm,
      plural(threads, 'thread'),
      this.repeat > 1 ? `repetition ${repetition ?? 1}/${this.repeat}${this.upTo ? ' at most' : ''}` : '',
    ]
      .filter(Boolean)
      .join(', ');
  }

  private say(text: string, keep = false): void {
    if (!this.tty) {
      this.stream.write(text + '\n');
      return;
    }
    const cols = this.stream.columns || 100;
    this.stream.write(`\r${text.slice(0, cols - 1).padEnd(Math.min(this.line.length, cols - 1))}${keep ? '\n' : ''}`);
    this.line = keep ? '' : text;
  }

  done(): void {
    if (this.tty && this.line) this.stream.write('\n');
    this.line = '';
  }
}

/** 4 -> "4 s", 80 -> "80 s", 200 -> "3 min". */
const took = (seconds: number) => (seconds < 120 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`);

/**
 * The experiment's line when it took materially longer than its plan said (half again, and 10 s more); null on plan
 * or with no time planned. `runsMs`: the runs' own time, the rest being deploys and setup the plan leaves out.
 */
export function planOverrunLine(plannedSeconds: number | null, tookMs: number, runsMs: number): string | null {
  if (plannedSeconds === null) return null;
  const planned = plannedSeconds * 1000;
  if (!(tookMs > planned * 1.5 && tookMs - planned > 10_000)) return null;
  const rest = Math.max(0, tookMs - runsMs);
  return (
    `This experiment took ${took(tookMs / 1000)}, not the about ${took(plannedSeconds)} planned: its runs took ${took(runsMs / 1000)} ` +
    `(the warnings above say where the time went)${rest >= 1000 ? `; deploys and setup ${took(rest / 1000)}` : ''}.`
  );
}

/** The experiment's overrun line from its runs (their own start and end times) and when it began; null on plan. */
export function experimentOverrun(
  plannedSeconds: number | null,
  beganMs: number,
  runs: readonly { startedAt: string; endedAt: string }[],
): string | null {
  const runsMs = runs.reduce((sum, r) => sum + Math.max(0, Date.parse(r.endedAt) - Date.parse(r.startedAt)), 0);
  return planOverrunLine(plannedSeconds, Date.now() - beganMs, runsMs);
}
