// bench/results.json: every figure by name, with its unit and (where the project set one) its goal, so a script or a
// reviewer reads the same numbers the tables show. Each bench part adds its own figures; run.ts writes the file.
export type GoalOp = '<=' | '>=';

export interface Goal {
  op: GoalOp;
  target: number;
}

export interface Figure {
  value: number;
  unit: string;
  goal?: Goal;
  /** Present when the figure has a goal. */
  met?: boolean;
  note?: string;
}

export type Figures = Record<string, Figure>;

export function meets(value: number, goal: Goal): boolean {
  return goal.op === '<=' ? value <= goal.target : value >= goal.target;
}

/** Adds one figure; a non-finite value (a part that could not measure it) is left out rather than written as null. */
export function addFigure(into: Figures, name: string, value: number, unit: string, goal?: Goal, note?: string): void {
  if (!Number.isFinite(value)) return;
  const f: Figure = { value: Number(value.toPrecision(6)), unit };
  if (goal) {
    // A target measured in the same run (bare tedious's CPU per call) is shown as precisely as the figures are.
    f.goal = { ...goal, target: Number(goal.target.toPrecision(6)) };
    f.met = meets(value, goal);
  }
  if (note) f.note = note;
  into[name] = f;
}

/** The goals table printed beside the figures: one row per figure with a goal. */
export function goalRows(figs: Figures): string[][] {
  return Object.entries(figs)
    .filter(([, f]) => f.goal)
    .map(([name, f]) => [name, `${f.value} ${f.unit}`, `${f.goal!.op} ${f.goal!.target} ${f.unit}`, f.met ? 'met' : 'not met']);
}
