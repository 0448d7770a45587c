// How a run is named in a warning, so the noise, steady-state and outlier reports name runs alike.

/** A run as a warning names it. */
export interface NamedRun {
  index?: number;
  threads: number;
  repetition?: number;
  arm: { id: string; label: string };
}

/** "run 4 (other node, 10 threads, repetition 2)". */
export function runName(r: NamedRun): string {
  const parts = [
    ...(r.arm.id !== 'main' ? [r.arm.label] : []),
    `${r.threads} thread${r.threads === 1 ? '' : 's'}`,
    ...(r.repetition !== undefined ? [`repetition ${r.repetition}`] : []),
  ];
  return `run ${r.index !== undefined ? r.index + 1 : '?'} (${parts.join(', ')})`;
}
