// `spinlab sim --instances N`: several simulated instances from one process, so one client (a `spinlab watch --servers`
// fleet) sees N distinct servers without N processes. Each is its own SimModel (its own counters, sessions, seed and
// @@SERVERNAME) on its own port: N consecutive ports from the first, or any free port each when the first is 0.
// startInstances (simulator.ts) starts them; this file holds the rules, with no imports.
/** More than this is a typo rather than a fleet: each instance holds a model, a listener and its background. */
export const MAX_INSTANCES = 200;

/** The model's own default seed (model/instance.ts): instance i is seeded with it + i unless --seed is given. */
export const DEFAULT_SEED = 20150101;

/** Why `--instances` cannot be used with this first port, or null when it can. */
export function instancesProblem(instances: number, port: number): string | null {
  if (!Number.isInteger(instances) || instances < 1 || instances > MAX_INSTANCES)
    return `--instances must be a whole number from 1 to ${MAX_INSTANCES}, not ${instances}`;
  if (port !== 0 && port + instances - 1 > 65535)
    return `--instances ${instances} from --port ${port} runs past port 65535: give a lower --port, or --port 0 for any free ports`;
  return null;
}

/** The server name of instance i (0-based) of n: the default name alone, else numbered so each is told apart. */
export function instanceName(base: string, i: number, n: number): string {
  return n === 1 ? base : `${base}-${String(i + 1).padStart(String(n).length, '0')}`;
}
