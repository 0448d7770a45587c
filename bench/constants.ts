// Names the benchmark's processes share (kept apart so a client process does not load the simulator's code).

export const BENCH_SIM_PASSWORD = 'Bench-Sim-Pw1!';

/** The procedure the driver benchmark calls: disk-insert's client-loop arguments, answered at once (simProcess.ts). */
export const BENCH_PROCEDURE = 'dbo.spinlab_bench_call';
