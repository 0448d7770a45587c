// The scenario catalogue: manifests under sql/scenarios/<id>/manifest.json, and what a manifest resolves to for a
// given set of parameter values (which deploy files run, which features are needed, which procedure the load calls).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ParamValue } from '../shared/experiment';
import { sqlRoot } from '../db/sqlFiles';
import { CUSTOM_MANIFEST, CUSTOM_SCENARIO_ID } from './custom/manifest';
import {
  ParamError,
  type ByParam,
  type Condition,
  type ParamSpec,
  type ScenarioManifest as ManifestShape,
  type Step,
} from '../shared/params';
import { isPostId, POST_IDS } from '../shared/posts';

export type { Step, ByParam };
export type ScenarioParam = ParamSpec;
/** A manifest as loaded from disk: the parts params.ts keeps optional are all present in the shipped files. */
export type ScenarioManifest = ManifestShape & Required<Pick<ManifestShape, 'unit' | 'deploy' | 'cleanup' | 'workload' | 'progress'>>;

let catalogue: Map<string, ScenarioManifest> | undefined;

export function listScenarios(): ScenarioManifest[] {
  if (!catalogue) {
    catalogue = new Map();
    const dir = path.join(sqlRoot(), 'scenarios');
    for (const id of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, id, 'manifest.json');
      if (!fs.existsSync(file)) continue;
      const m = JSON.parse(fs.readFileSync(file, 'utf8')) as ScenarioManifest;
      if (m.id !== id) throw new Error(`${file}: id '${m.id}' does not match its folder '${id}'`);
      const unknown = (m.posts ?? []).filter((p) => !isPostId(p));
      if (!m.posts?.length || unknown.length)
        throw new Error(
          `${file}: 'posts' must list post ids from src/shared/posts.ts (${POST_IDS.join(', ')})${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`,
        );
      catalogue.set(id, m);
    }
  }
  return [...catalogue.values()];
}

export function getScenario(id: string): ScenarioManifest {
  if (id === CUSTOM_SCENARIO_ID) return CUSTOM_MANIFEST; // the user's own T-SQL: not in the catalogue, nothing to deploy
  const found = listScenarios().find((s) => s.id === id);
  if (!found) {
    const known = listScenarios()
      .map((s) => s.id)
      .join(', ');
    throw new ParamError([`Unknown scenario '${id}'. Known scenarios: ${known}.`]);
  }
  return found;
}

export function defaultParameters(m: ScenarioManifest): Record<string, ParamValue> {
  return Object.fromEntries(m.parameters.map((p) => [p.name, p.default]));
}

function matches(cond: Condition | undefined, values: Record<string, ParamValue>): boolean {
  return !cond || Object.entries(cond).every(([k, v]) => values[k] === v);
}

export function stepApplies(step: Step, values: Record<string, ParamValue>): boolean {
  return matches(step.when, values) && (!step.unless || !matches(step.unless, values));
}

export function deploySteps(m: ScenarioManifest, values: Record<string, ParamValue>): string[] {
  return m.deploy.filter((s) => stepApplies(s, values)).map((s) => s.sql);
}

export function cleanupSteps(m: ScenarioManifest, values: Record<string, ParamValue>): string[] {
  return m.cleanup.filter((s) => stepApplies(s, values)).map((s) => s.sql);
}

export function needsXtp(m: ScenarioManifest, values: Record<string, ParamValue>): boolean {
  return m.features.some((f) => f.feature === 'xtp' && matches(f.when, values));
}

export function resolveByParam<T>(spec: ByParam<T>, values: Record<string, ParamValue>, what: string): T {
  if (spec === null || typeof spec !== 'object' || !('param' in (spec as object))) return spec as T;
  const s = spec as { param: string; map?: Record<string, T> };
  const v = values[s.param];
  if (!s.map) return v as unknown as T;
  const hit = s.map[String(v)];
  if (hit === undefined) throw new Error(`${what}: no mapping for ${s.param}=${String(v)}`);
  return hit;
}

export interface ResolvedProc {
  name: string;
  args: string[];
}

export function workloadProcedure(
  m: ScenarioManifest,
  mode: 'server-loop' | 'client-loop',
  values: Record<string, ParamValue>,
): ResolvedProc {
  const spec = mode === 'server-loop' ? m.workload.serverLoop : m.workload.clientLoop;
  return { name: resolveByParam(spec.procedure, values, `${m.id} ${mode} procedure`), args: spec.args };
}

export function rowsPerCall(m: ScenarioManifest, values: Record<string, ParamValue>): number {
  return Number(resolveByParam(m.workload.rowsPerCall, values, `${m.id} rowsPerCall`));
}

/** True when the workload's transactions run inside natively compiled procedures (not in Transactions/sec). */
export function runsNativeProcedures(m: ScenarioManifest, values: Record<string, ParamValue>): boolean {
  const when = m.workload.nativeWhen;
  return when !== undefined && matches(when, values);
}

/** The T-SQL type a parameter travels as. */
export function paramSqlType(p: ScenarioParam): string {
  return p.type === 'int' ? 'int' : p.type === 'bool' ? 'bit' : 'nvarchar(64)';
}

export const BUILTIN_ARG_TYPES: Record<string, string> = {
  key_base: 'bigint',
  offset: 'bigint',
  rows: 'bigint',
  run_ms: 'int',
};
