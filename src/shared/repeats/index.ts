// Repeated runs: intervals on every figure (interval.ts), the words that follow from them (words.ts), an experiment's
// runs read as cells of repetitions (cells.ts), its noise reported (noise.ts), and a sweep's cells by arm and thread
// count (scaling.ts).
export * from './interval';
export * from './plan';
export * from './family';
export * from './design';
export * from './words';
export * from './method';
export * from './primary';
export * from './cells';
export * from './noise';
export * from './scaling';
