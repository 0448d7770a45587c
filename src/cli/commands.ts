// The CLI's small commands, each a thin call into the engine.
import { DbSession } from '../db/client';
import { describeTarget, targetAddress, type DbTarget } from '../db/target';
import { parseConnectionString, ConnectionStringError, CONNECTION_STRING_EXAMPLE, type ConnectionConfig } from '../engine/connection';
import { cleanupScenario, deployedScenarios, deployScenario, dropLab } from '../engine/lab';
import { restoreServer } from '../engine/knobs';
import { defaultStateDir, listJournals, readJournal, serverKey } from '../engine/journal';
import { resolveParams } from '../shared/params';
import { getScenario } from '../engine/scenarios';
import { readIdentity, readTopology } from '../engine/server';
import type { ServerIdentity, Topology } from '../shared/types';
import { table } from '../engine/report';
import { checkServer, checkText, parseFeatures } from '../engine/check';
import { journalCheck, journalFolderProblem, runningCheck, withExperiments } from '../engine/checkJournal';
import { SpinlabError } from '../shared/spinlabError';
import { isSystemDatabase, labDatabaseProblem } from '../shared/labDatabase';
import { plural } from '../shared/plural';

/** The command line asks for something that cannot be done as written. */
export class UsageError extends SpinlabError {
  constructor(message: string) {
    super('user-input', message);
  }
}

/** Why --lab-db NAME cannot be the lab database, in the option's words, or null. */
export function labDbProblem(name: string): string | null {
  const problem = labDatabaseProblem(name);
  if (!problem) return null;
  return `--lab-db ${name}: ${problem}.${isSystemDatabase(name) ? ' Leave --lab-db out, or name another database.' : ''}`;
}

/** --lab-db's value, checked as commander reads it, before any command connects. */
export function labDbArg(name: string): string {
  const problem = labDbProblem(name);
  if (problem) throw new UsageError(problem);
  return name;
}

export function toTarget(cfg: ConnectionConfig): DbTarget {
  if (cfg.authentication !== 'sql' && cfg.authentication !== 'ntlm' && cfg.authentication !== 'azure-active-directory-access-token') {
    throw new ConnectionStringError(
      `Authentication=${cfg.authentication} is not supported by the command line yet; use a SQL login, Windows (NTLM) or an access token.`,
    );
  }
  return {
    server: cfg.server,
    port: cfg.port ?? undefined,
    instanceName: cfg.instanceName,
    database: cfg.database,
    user: cfg.user,
    password: cfg.password,
    domain: cfg.domain,
    accessToken: cfg.accessToken,
    authentication: cfg.authentication,
    encrypt: cfg.encrypt,
    trustServerCertificate: cfg.trustServerCertificate,
    ...(cfg.hostNameInCertificate ? { hostNameInCertificate: cfg.hostNameInCertificate } : {}),
    connectTimeoutMs: cfg.connectTimeoutMs,
    appName: cfg.appName,
  };
}

/** -c, else SPINLAB_CONNECTION; a password left out of the string comes from SPINLAB_PASSWORD. */
export function targetFromArgs(connection: string | undefined, env: NodeJS.ProcessEnv = process.env): DbTarget {
  const s = connection ?? env.SPINLAB_CONNECTION;
  if (!s) throw new UsageError(`No connection: pass -c "<connection string>" or set SPINLAB_CONNECTION, e.g. ${CONNECTION_STRING_EXAMPLE}`);
  const target = toTarget(parseConnectionString(s));
  if (target.authentication === 'sql' && !target.password && env.SPINLAB_PASSWORD) target.password = env.SPINLAB_PASSWORD;
  return target;
}

export async function withAdmin<T>(target: DbTarget, fn: (admin: DbSession, identity: ServerIdentity) => Promise<T>): Promise<T> {
  // keep: deploy, cleanup, drop-lab and restore hold the lab's lock on this session while other sessions do the work.
  const admin = await DbSession.open(target, { database: 'master', appName: 'Spinlock Lab', keep: true });
  try {
    return await fn(admin, await readIdentity(admin));
  } finally {
    await admin.close();
  }
}

export function topologyText(identity: ServerIdentity, t: Topology, missing: string[]): string {
  const lines: string[] = [];
  if (identity.simulated) lines.push('SIMULATED: this is the Spinlock Lab simulator; its numbers are synthetic.');
  lines.push(`${identity.serverName}: ${identity.versionBanner}`);
  lines.push(
    `edition ${identity.edition}; In-Memory OLTP ${identity.xtpSupported ? 'supported' : 'not supported'}; login ${identity.login}`,
  );
  lines.push(
    `${plural(t.socketCount, 'socket')} x ${plural(t.coresPerSocket, 'core')}, ${plural(t.cpuCount, 'logical CPU')} (${t.hyperthreadRatio} per socket), ${plural(t.numaNodeCount, 'NUMA node')}; soft-NUMA ${t.softNuma ?? 'unknown'}`,
  );
  lines.push(
    `memory model ${t.memoryModel ?? 'unknown'}; large pages ${t.largePageAllocationsKb ?? '?'} KB; locked pages ${t.lockedPageAllocationsKb ?? '?'} KB`,
  );
  lines.push(`affinity ${t.affinityType}`);
  const lw = t.logWriters.map(
    (l) => `session ${l.sessionId} on scheduler ${l.schedulerId} (CPU ${l.cpuId ?? '?'}, node ${l.nodeId ?? '?'})`,
  );
  lines.push(`log writer: ${lw.length ? lw.join('; ') : 'not visible (needs VIEW SERVER STATE)'}`);
  lines.push(
    `trace flags: ${
      t.traceFlags === null
        ? 'unknown'
        : t.traceFlags
            .filter((f) => f.global)
            .map((f) => f.flag)
            .join(', ') || 'none'
    }`,
  );
  if (missing.length) lines.push(`(this version lacks ${missing.join(', ')} in sys.dm_os_sys_info; those figures are inferred)`);
  // Soft-NUMA: SQL Server's nodes differ from the hardware nodes; numa:N in --affinity means hardware node N.
  const soft = t.nodes.some((n) => n.memoryNodeId !== undefined && n.memoryNodeId !== n.nodeId);
  if (soft) lines.push('soft-NUMA nodes differ from the hardware nodes: --affinity numa:N means hardware node N (the "hw node" column)');
  lines.push('');
  lines.push(
    table(
      ['node', ...(soft ? ['hw node'] : []), 'state', 'CPUs', 'online', 'offline CPUs'],
      t.nodes.map((n) => {
        const off = t.schedulers.filter((s) => s.nodeId === n.nodeId && !s.isOnline).map((s) => s.cpuId);
        return [
          String(n.nodeId),
          ...(soft ? [String(n.memoryNodeId)] : []),
          n.state,
          String(n.cpuCount),
          String(n.onlineSchedulerCount),
          off.length ? off.join(',') : '-',
        ];
      }),
    ),
  );
  return lines.join('\n') + '\n';
}

export async function topologyCommand(target: DbTarget, json: boolean): Promise<string> {
  return withAdmin(target, async (admin, identity) => {
    const { topology, startTime, missing } = await readTopology(admin, identity);
    identity.startTime = startTime;
    return json ? JSON.stringify({ server: identity, topology }, null, 2) + '\n' : topologyText(identity, topology, missing);
  });
}

export async function deployCommand(target: DbTarget, scenarioId: string, set: string[], labDb: string): Promise<string> {
  const scenario = getScenario(scenarioId);
  const values = resolveParams(scenario.parameters, { set });
  const log: string[] = [];
  const before = await withAdmin(target, async (admin, identity) => {
    const there = (await deployedScenarios(admin, labDb)).includes(scenario.id);
    await deployScenario(target, admin, identity, labDb, scenario, values, (m) => log.push(m));
    return there;
  });
  // A deploy starts from an empty table: a second one replaces the first's objects and rows, so it says so.
  const again = before
    ? ': it was deployed already, and is deployed afresh (its objects re-created, its table emptied and seeded again)'
    : '';
  return `${log.join('\n')}\nDeployed ${scenario.id} into [${labDb}] on ${describeTarget(target)}${again}.\n`;
}

export async function cleanupCommand(target: DbTarget, scenarioId: string, set: string[], labDb: string): Promise<string> {
  const scenario = getScenario(scenarioId);
  const values = resolveParams(scenario.parameters, { set });
  const log: string[] = [];
  const r = await withAdmin(target, (admin, identity) =>
    cleanupScenario(target, admin, identity, labDb, scenario, values, (m) => log.push(m)),
  );
  if (r === 'no-lab') return `Nothing to remove: no lab database [${labDb}] on ${describeTarget(target)}.\n`;
  if (r === 'not-deployed') return `Nothing to remove: ${scenario.id} is not deployed in [${labDb}] on ${describeTarget(target)}.\n`;
  return `${log.join('\n')}\nRemoved ${scenario.id} from [${labDb}].\n`;
}

/** `spinlab drop-lab`: drop the lab database (only one Spinlock Lab created), ending a session that holds it open. */
export async function dropLabCommand(target: DbTarget, labDb: string): Promise<string> {
  return withAdmin(target, async (admin, identity) => {
    const r = await dropLab(admin, labDb, identity);
    if (!r.existed) return `No database [${labDb}] on ${describeTarget(target)}: nothing to drop.\n`;
    const ended = r.killed.length ? ` (ended session${r.killed.length > 1 ? 's' : ''} ${r.killed.join(', ')}, which held it open)` : '';
    return `Dropped the lab database [${labDb}] on ${describeTarget(target)}${ended}.\n`;
  });
}

export async function restoreCommand(target: DbTarget, stateDir = defaultStateDir(), force = false): Promise<string> {
  return withAdmin(target, async (admin, identity) => {
    const address = targetAddress(target);
    const r = await restoreServer(admin, identity, target, stateDir, { force });
    if (!r.restored && !r.actions.length) {
      const others = listJournals(stateDir).map((j) => j.serverAddress);
      return `Nothing to restore for ${address}: no restore journal${others.length ? ` (journals exist for: ${others.join(', ')})` : ''}.\n`;
    }
    return `${r.actions.length ? r.actions.join('\n') : 'the server already matched the journal'}\nRestored; ${readJournal(stateDir, serverKey(address, identity.serverName)) ? 'the journal keeps the event sessions of captures still running' : 'the journal is removed'}.\n`;
  });
}

/**
 * `spinlab check`: what this server is and what will work with this login, and any experiment's journal or lock on it;
 * ok is false when an asked feature cannot run, or an experiment's journal or lock would refuse a run now.
 */
export async function checkCommand(
  target: DbTarget,
  labDb: string,
  features: string | undefined,
  json: boolean,
  stateDir = defaultStateDir(),
): Promise<{ text: string; ok: boolean }> {
  let asked;
  try {
    asked = parseFeatures(features);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const admin = await DbSession.open(target, { database: 'master', appName: 'Spinlock Lab' });
  try {
    const identity = await readIdentity(admin);
    const journal = await journalCheck(admin, identity, target, stateDir, labDb);
    const running = journal ? null : await runningCheck(admin, labDb);
    const folder = { dir: stateDir, problem: journalFolderProblem(stateDir) };
    const report = withExperiments(await checkServer(admin, labDb, asked), journal, running, folder);
    return { text: json ? JSON.stringify(report, null, 2) + '\n' : checkText(report), ok: report.ok };
  } finally {
    await admin.close();
  }
}
