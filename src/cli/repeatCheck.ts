// --repeat and --max-repeat, checked before anything connects (precheck.ts gathers every problem).
import { MAX_REPEAT, parseRepeat } from '../shared/planTime';

/**
 * --repeat: 1 to MAX_REPEAT runs per cell, or auto (which needs a gate to decide); --max-repeat only with auto (the
 * default with gates), 2 or more, as one run has no interval. Empty values are emptyValueProblems'.
 */
export function repeatProblems(repeat: string | undefined, maxRepeat?: string, gates = 0): string[] {
  const problems: string[] = [];
  const auto = repeat?.trim().toLowerCase() === 'auto';
  if (auto && gates === 0)
    problems.push('--repeat auto repeats until every --assert gate is decided: give a gate (--assert), or a number of repetitions.');
  const bad = (f: () => unknown) => {
    try {
      f();
      return false;
    } catch {
      return true;
    }
  };
  if (repeat !== undefined && repeat.trim() !== '' && !auto && bad(() => parseRepeat(repeat)))
    problems.push(
      `--repeat ${repeat}: write a whole number of runs per thread count from 1 to ${MAX_REPEAT}, e.g. --repeat 3, or auto with --assert (or leave it out: 1, the preset's own, or auto with --assert).`,
    );
  if (maxRepeat === undefined || maxRepeat.trim() === '') return problems;
  if (!auto && !(repeat === undefined && gates > 0))
    problems.push(
      `--max-repeat goes with --repeat auto (the default with --assert); with --repeat ${repeat ?? 'left out and no gate'} leave it out.`,
    );
  else if (!/^\d+$/.test(maxRepeat.trim()) || Number(maxRepeat) < 2 || Number(maxRepeat) > MAX_REPEAT)
    problems.push(
      `--max-repeat ${maxRepeat}: write a whole number of repetitions from 2 to ${MAX_REPEAT} (a gate needs two runs at least), e.g. --max-repeat 15.`,
    );
  return problems;
}
