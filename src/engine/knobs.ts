// Server-wide knobs: read the current state, journal it, change it, and put it back (verifying that it is back).
// Memory model, large pages, soft-NUMA and trace flags are only ever read (server.ts).
import * as os from 'node:os';
import type { DbSession } from '../db/client';
import { targetAddress, type DbTarget } from '../db/target';
import { DbError } from '../db/dbError';
import { num, str, type Row } from '../db/rows';
import type { KnobRequest, KnobState } from '../shared/experiment';
import { formatCpuRanges, formatSpec } from '../shared/affinity';
import { explain, SpinlabError } from './errors';
import { AFFINITY_LOCK, labLockResource, releaseLocks, takeLocks, type LockRequest } from './labLock';
import { deleteJournal, processGone, readJournal, serverKey, writeJournal, type Journal, type JournaledEventSession } from './journal';
import { dropSession, UNCONFIRMED_DROP } from './stacks/sessions';
import type { ServerIdentity } from '../shared/types';
import { recoverExperiment } from './recover';
import { featureVersion } from '../shared/serverLevel';
import { plural } from '../shared/plural';

export interface KnobContext {
  admin: DbSession;
  labDatabase: string;
  stateDir: string;
  serverKey: string;
  serverAddress: string;
  serverName: string;
  login: string;
  majorVersion: number | null;
  /** The running experiment's output folder, kept in the journal for recovery after a crash. */
  experimentDir?: string;
}

/**
 * The knob context for a server as reached through `target`: the journal is keyed by the address used
 * (targetAddress) and @@SERVERNAME, so a run, `spinlab restore` and the panel all find the same journal.
 */
export function knobContextFor(
  admin: DbSession,
  identity: ServerIdentity,
  target: DbTarget,
  stateDir: string,
  labDatabase = '',
): KnobContext {
  const address = targetAddress(target);
  return {
    admin,
    labDatabase,
    stateDir,
    serverKey: serverKey(address, identity.serverName),
    serverAddress: address,
    serverName: identity.serverName,
    login: identity.login,
    majorVersion: featureVersion(identity),
  };
}

/** The unrestored journal for this server, or null. */
export function journalFor(identity: ServerIdentity, target: DbTarget, stateDir: string): Journal | null {
  return readJournal(stateDir, serverKey(targetAddress(target), identity.serverName));
}

/**
 * What `spinlab restore` and the panel's Restore do: put back what this server's journal recorded. A journal whose
 * experiment is still running (it holds the lab's lock, or the affinity lock) is refused: putting its knobs back
 * would change them under it. It restores them itself when it ends; `force` overrides (a holder known to be stuck).
 */
export async function restoreServer(
  admin: DbSession,
  identity: ServerIdentity,
  target: DbTarget,
  stateDir: string,
  opts: { force?: boolean } = {},
): Promise<RestoreResult> {
  const ctx = knobContextFor(admin, identity, target, stateDir);
  const j = readJournal(stateDir, ctx.serverKey);
  if (!j || !j.changes.length || opts.force) return restoreFromJournal(ctx);
  const locks: LockRequest[] = [
    { resource: labLockResource(j.labDatabase), mode: 'Exclusive', what: `the lab database [${j.labDatabase}]` },
    ...(j.changes.includes('affinity')
      ? [{ resource: AFFINITY_LOCK, mode: 'Exclusive' as const, what: "the server's process affinity" }]
      : []),
  ];
  try {
    await takeLocks(admin, locks, `Restoring the journal of process ${j.pid} (${knobWords(j.changes)})`);
  } catch (err) {
    // Only the refusal takeLocks words itself; a driver error is passed on as it is.
    if (!(err instanceof SpinlabError) || err instanceof DbError) throw err;
    throw new SpinlabError(
      'server',
      err.headline.split('\n')[0].replace(/ is refused: /, ' is refused: the journal is not restored under a live experiment; '),
      'wait for that experiment to finish: it puts its settings back itself. If it is stuck, stop it; `spinlab restore --force` restores anyway.',
    );
  }
  try {
    return await restoreFromJournal(ctx);
  } finally {
    await releaseLocks(admin, locks);
  }
}

/** ['delayedDurability', 'affinity'] -> "delayed durability and process affinity" */
export function knobWords(changes: Journal['changes']): string {
  return changes.map((c) => (c === 'affinity' ? 'process affinity' : 'delayed durability')).join(' and ');
}

export async function readKnobState(db: DbSession, labDatabase: string): Promise<KnobState> {
  const [info = [], schedulers = [], dbs = []] = await db.runFile('knobs/read', { db: labDatabase });
  const type = str(info[0]?.affinity_type_desc) || 'AUTO';
  const online = (s: Row) => s.is_online === true || num(s.is_online) === 1;
  const cpus = schedulers
    .filter(online)
    .map((s) => num(s.cpu_id))
    .filter((c, i, all) => all.indexOf(c) === i)
    .sort((a, b) => a - b);
  const numaNodes = type === 'MANUAL' ? wholeNodes(schedulers, online) : null;
  return {
    delayedDurability: dbs[0] ? str(dbs[0].delayed_durability_desc) : null,
    affinity: numaNodes ? { type, cpus, numaNodes } : { type, cpus },
  };
}

/** The nodes whose schedulers are all online when every online scheduler belongs to one of them; else null. */
function wholeNodes(schedulers: Row[], online: (s: Row) => boolean): number[] | null {
  const byNode = new Map<number, Row[]>();
  for (const s of schedulers) byNode.set(num(s.parent_node_id), [...(byNode.get(num(s.parent_node_id)) ?? []), s]);
  const nodes: number[] = [];
  for (const [node, rows] of byNode) {
    const on = rows.filter(online).length;
    if (on === rows.length) nodes.push(node);
    else if (on > 0) return null; // part of a node: a CPU list
  }
  return nodes.length > 0 ? nodes.sort((a, b) => a - b) : null;
}

function sameCpus(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** True when `state` already is what `req` asks for (nothing to change). */
function affinityMatches(state: KnobState, cpus: number[] | 'AUTO'): boolean {
  return cpus === 'AUTO'
    ? state.affinity.type === 'AUTO'
    : state.affinity.type === 'MANUAL' &&
        sameCpus(
          state.affinity.cpus,
          [...cpus].sort((x, y) => x - y),
        );
}

async function setAffinity(ctx: KnobContext, cpus: number[] | 'AUTO', numaNodes?: number[]): Promise<void> {
  try {
    if (numaNodes?.length) await ctx.admin.runFile('knobs/affinity-numa', { node_ranges: formatCpuRanges(numaNodes) });
    else if (cpus === 'AUTO') await ctx.admin.runFile('knobs/affinity-auto');
    else await ctx.admin.runFile('knobs/affinity-cpu', { cpu_ranges: formatCpuRanges(cpus) });
  } catch (err) {
    throw explain(err, 'Changing process affinity', { login: ctx.login, majorVersion: ctx.majorVersion, needs: 'ALTER SETTINGS' });
  }
}

async function setDelayedDurability(ctx: KnobContext, mode: string): Promise<void> {
  try {
    await ctx.admin.runFile('knobs/delayed-durability', { db: ctx.labDatabase, mode });
  } catch (err) {
    throw explain(err, 'Changing delayed durability', {
      login: ctx.login,
      majorVersion: ctx.majorVersion,
      database: ctx.labDatabase,
      needs: `ALTER ON DATABASE::[${ctx.labDatabase}]`,
    });
  }
}

/**
 * Journals the original state, then applies `req`. Returns the state found before this call (null-free: when nothing
 * needed changing, no journal is written). A failure part-way leaves the journal in place: the caller restores.
 *
 * Called again within the same experiment (a preset's next arm), the journal already holds the state from before the
 * experiment's first change: it is kept, and a knob changed for the first time is added with its current value (still
 * the original) before it changes. An experiment refuses to start while a journal for the server exists, so a journal
 * found here is this experiment's own.
 */
export async function applyKnobs(ctx: KnobContext, req: KnobRequest): Promise<KnobState> {
  const before = await readKnobState(ctx.admin, ctx.labDatabase);
  const changes: Journal['changes'] = [];
  if (req.affinity && !affinityMatches(before, req.affinity.cpus)) changes.push('affinity');
  if (req.delayedDurability && req.delayedDurability !== before.delayedDurability) changes.push('delayedDurability');
  if (!changes.length) return before;
  const earlier = readJournal(ctx.stateDir, ctx.serverKey);
  const all = [...new Set([...(earlier?.changes ?? []), ...changes])];
  if (!earlier || all.length !== earlier.changes.length) {
    const original: KnobState = earlier
      ? {
          delayedDurability: earlier.changes.includes('delayedDurability') ? earlier.original.delayedDurability : before.delayedDurability,
          affinity: earlier.changes.includes('affinity') ? earlier.original.affinity : before.affinity,
        }
      : before;
    writeJournal(ctx.stateDir, {
      version: 1,
      serverKey: ctx.serverKey,
      serverAddress: ctx.serverAddress,
      serverName: ctx.serverName,
      labDatabase: ctx.labDatabase,
      createdAt: earlier?.createdAt ?? new Date().toISOString(),
      pid: process.pid,
      host: os.hostname(),
      original,
      changes: all,
      experimentDir: ctx.experimentDir,
      eventSessions: earlier?.eventSessions,
    });
  }
  if (changes.includes('delayedDurability')) await setDelayedDurability(ctx, req.delayedDurability!);
  if (changes.includes('affinity')) await setAffinity(ctx, req.affinity!.cpus);
  return before;
}

/** Sets knobs for good (spinlab tune --apply): no journal, so nothing puts them back, as the user asked. */
export async function setKnobsForGood(ctx: KnobContext, req: KnobRequest): Promise<void> {
  if (req.delayedDurability) await setDelayedDurability(ctx, req.delayedDurability);
  if (req.affinity) await setAffinity(ctx, req.affinity.cpus);
}

/**
 * The request that puts every knob an experiment may have changed where `req` wants it: a knob `req` leaves out goes
 * back to `original` (the state before the experiment), so one arm's setting never leaks into the next.
 */
export function completeRequest(req: KnobRequest, original: KnobState): KnobRequest {
  const out: KnobRequest = { ...req };
  const dd = original.delayedDurability;
  if (!out.delayedDurability && (dd === 'DISABLED' || dd === 'ALLOWED' || dd === 'FORCED')) out.delayedDurability = dd;
  if (!out.affinity && (original.affinity.type === 'AUTO' || original.affinity.cpus.length > 0)) {
    out.affinity =
      original.affinity.type === 'AUTO'
        ? { spec: 'auto', cpus: 'AUTO' }
        : { spec: `cpu:${formatSpec(original.affinity.cpus)}`, cpus: [...original.affinity.cpus] };
  }
  return out;
}

export interface RestoreResult {
  restored: KnobState | null;
  /** What was put back, in words. */
  actions: string[];
}

/**
 * Puts back what the journal for this server recorded, checks the server now matches it, and only then deletes the
 * journal. No journal: nothing to do.
 */
export async function restoreFromJournal(ctx: KnobContext): Promise<RestoreResult> {
  const j = readJournal(ctx.stateDir, ctx.serverKey);
  if (!j) return { restored: null, actions: [] };
  const actions: string[] = [];
  const sessions = await restoreEventSessions(ctx, j, actions);
  // A journal that changed no knob (an event session only) reads no knob state: a login may capture stacks without
  // the permissions reading affinity needs.
  if (!j.changes.length) {
    if (sessions.length) writeJournal(ctx.stateDir, { ...j, eventSessions: sessions });
    else deleteJournal(ctx.stateDir, ctx.serverKey);
    return { restored: null, actions };
  }
  const now = await readKnobState(ctx.admin, j.labDatabase);
  const labCtx = { ...ctx, labDatabase: j.labDatabase };
  if (
    j.changes.includes('delayedDurability') &&
    j.original.delayedDurability &&
    now.delayedDurability !== null &&
    now.delayedDurability !== j.original.delayedDurability
  ) {
    await setDelayedDurability(labCtx, j.original.delayedDurability);
    actions.push(`delayed durability on [${j.labDatabase}] set back to ${j.original.delayedDurability}`);
  }
  if (j.changes.includes('affinity')) {
    const target = j.original.affinity.type === 'AUTO' ? 'AUTO' : j.original.affinity.cpus;
    const nodes = target === 'AUTO' ? undefined : j.original.affinity.numaNodes;
    // A NUMANODE original is put back as NUMANODE even when the CPUs online already match: the run may have set the
    // same CPUs as a list, which binds schedulers differently, and the server does not say which form is in force.
    if (!affinityMatches(now, target) || nodes?.length) {
      await setAffinity(labCtx, target, nodes);
      actions.push(
        target === 'AUTO'
          ? 'process affinity set back to AUTO'
          : nodes?.length
            ? `process affinity set back to NUMANODE = ${formatCpuRanges(nodes)}`
            : `process affinity set back to CPUs ${formatCpuRanges(target)}`,
      );
    }
  }
  const after = await readKnobState(ctx.admin, j.labDatabase);
  const ddOk =
    !j.changes.includes('delayedDurability') ||
    after.delayedDurability === null ||
    after.delayedDurability === j.original.delayedDurability;
  const affOk =
    !j.changes.includes('affinity') || affinityMatches(after, j.original.affinity.type === 'AUTO' ? 'AUTO' : j.original.affinity.cpus);
  if (!ddOk || !affOk) {
    throw new SpinlabError(
      'server',
      `Restore did not take: the server still differs from the journal (${JSON.stringify(after)} vs ${JSON.stringify(j.original)}). The journal is kept.`,
    );
  }
  // Event sessions of captures still running stay journaled (their process drops them); the knobs are done.
  if (sessions.length) writeJournal(ctx.stateDir, { ...j, changes: [], eventSessions: sessions });
  else deleteJournal(ctx.stateDir, ctx.serverKey);
  const recovered = recoverAfterCrash(j);
  if (recovered) {
    actions.push(
      `the interrupted experiment's record (${recovered.file}) was completed from samples.jsonl: ${plural(recovered.recoveredTicks, 'tick')} in ${plural(recovered.recoveredRuns, 'unfinished run')}`,
    );
  }
  return { restored: after, actions };
}

/**
 * Drops the journaled event sessions whose process is gone (a capture killed or crashed) and reports them; returns
 * those still owned by a running process (or by this one: a capture that is running now), which stay journaled.
 */
async function restoreEventSessions(ctx: KnobContext, j: Journal, actions: string[]): Promise<JournaledEventSession[]> {
  const kept: JournaledEventSession[] = [];
  for (const s of j.eventSessions ?? []) {
    if (!processGone(s.pid)) {
      kept.push(s);
      continue;
    }
    let gone: boolean | null;
    try {
      gone = await dropSession(ctx.admin, s.name);
    } catch (err) {
      throw explain(err, `Dropping the event session ${s.name}`, {
        login: ctx.login,
        majorVersion: ctx.majorVersion,
        needs: 'ALTER ANY EVENT SESSION',
      });
    }
    if (gone === false) {
      kept.push(s);
      actions.push(`event session ${s.name} (left by process ${s.pid}) is still defined after DROP EVENT SESSION: it stays journaled`);
    } else {
      actions.push(
        gone
          ? `event session ${s.name} (left by process ${s.pid}) dropped`
          : `event session ${s.name} (left by process ${s.pid}): DROP EVENT SESSION sent, but ${UNCONFIRMED_DROP}`,
      );
    }
  }
  return kept;
}

function recoverAfterCrash(j: Journal) {
  if (!j.experimentDir || !processGone(j.pid)) return null;
  try {
    return recoverExperiment(
      j.experimentDir,
      `The process (pid ${j.pid}) running this experiment stopped without finishing (killed or crashed); its settings were restored from the journal on ${new Date().toISOString()}.`,
    );
  } catch {
    return null; // the record is a convenience; the settings are what restore must put back
  }
}
