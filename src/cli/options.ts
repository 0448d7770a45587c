// Options several commands share, spelled once.

/** An existing notebook is refused unless one of these says what to do with it (notebookOut.ts). */
export const ADD_TO = [
  '--add-to [notebook]',
  'add to an existing notebook (--add-to FILE, or --notebook FILE --add-to), beside the experiments in it, as rerun does',
] as const;
export const FORCE = ['--force', 'replace an existing --notebook'] as const;
