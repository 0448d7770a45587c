// What `spinlab check` says about experiments on the server beside its permissions: this machine's restore journal for
// it (an earlier experiment's settings not put back, whose and what `spinlab restore` puts back; a journal that cannot
// be read, with what to check by hand; or the journal of an experiment running now), or an experiment running now that
// changed nothing. Any of them means a run now would be refused, so check does not say that everything can run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DbSession } from '../db/client';
import { targetAddress, type DbTarget } from '../db/target';
import type { KnobState } from '../shared/experiment';
import type { ServerIdentity } from '../shared/types';
import { formatCpuRanges, formatSpec } from '../shared/affinity';
import { journalPath, processGone, readJournal, serverKey, UnreadableJournalError, type Journal } from './journal';
import { AFFINITY_LOCK, describeHolder, journalOwner, labLockResource, lockHolders, type LockHolder } from './labLock';
import { readKnobState } from './knobs';
import type { CheckReport, FeatureId } from './check';
import { journalBlocker, type CheckJournal, type JournalSetting } from './checkJournalText';
import { failureReason } from './outFiles';

const q = (name: string) => `[${name.replace(/]/g, ']]')}]`;

function affinityWords(a: KnobState['affinity']): string {
  if (a.type === 'AUTO') return 'AUTO';
  return a.numaNodes?.length ? `NUMANODE = ${formatCpuRanges(a.numaNodes)}` : `CPUs ${formatSpec(a.cpus)} (${a.type})`;
}

/** The server's settings now, or null when this login cannot read them. */
async function knobsNow(admin: DbSession, labDatabase: string): Promise<KnobState | null> {
  return readKnobState(admin, labDatabase).catch(() => null);
}

/** A few fields of a journal that does not parse, where its text still shows them. */
function salvage(file: string): { pid: number | null; createdAt: string | null; labDatabase: string | null } {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    /* nothing to salvage */
  }
  const field = (k: string) => new RegExp(`"${k}"\\s*:\\s*"([^"]*)"`).exec(text)?.[1] ?? null;
  const pid = /"pid"\s*:\s*(\d+)/.exec(text)?.[1];
  return { pid: pid ? Number(pid) : null, createdAt: field('createdAt'), labDatabase: field('labDatabase') };
}

function settingsOf(j: Journal, now: KnobState | null): JournalSetting[] {
  const out: JournalSetting[] = [];
  if (j.changes.includes('affinity'))
    out.push({ setting: 'process affinity', now: now ? affinityWords(now.affinity) : null, before: affinityWords(j.original.affinity) });
  if (j.changes.includes('delayedDurability'))
    out.push({
      setting: `delayed durability on ${q(j.labDatabase)}`,
      now: now?.delayedDurability ?? null,
      before: j.original.delayedDurability,
    });
  for (const s of j.eventSessions ?? [])
    out.push({ setting: `event session ${s.name} (process ${s.pid})`, now: processGone(s.pid) ? 'left' : 'in use', before: 'none' });
  return out;
}

/** The by-hand steps for a journal that cannot be read: each setting as it is now, and the statement that sets it back. */
function byHand(file: string, lab: string, now: KnobState | null): { settings: JournalSetting[]; fix: string[] } {
  const settings: JournalSetting[] = [
    { setting: 'process affinity', now: now ? affinityWords(now.affinity) : null, before: null },
    { setting: `delayed durability on ${q(lab)}`, now: now?.delayedDurability ?? null, before: null },
  ];
  const fix = [
    `process affinity (SELECT affinity_type_desc FROM sys.dm_os_sys_info;): if it was AUTO before the experiment, ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = AUTO;`,
    `delayed durability on ${q(lab)} (SELECT delayed_durability_desc FROM sys.databases WHERE name = N'${lab.replace(/'/g, "''")}';): if it was DISABLED, ALTER DATABASE ${q(lab)} SET DELAYED_DURABILITY = DISABLED;`,
    'any Spinlock Lab event session left (the notes name them): DROP EVENT SESSION [name] ON SERVER;',
    `then delete the file: ${file}`,
  ];
  return { settings, fix };
}

/** This machine's journal for the server, as `check` reports it; null when there is none. */
export async function journalCheck(
  admin: DbSession,
  identity: ServerIdentity,
  target: DbTarget,
  stateDir: string,
  labDatabase: string,
): Promise<CheckJournal | null> {
  const key = serverKey(targetAddress(target), identity.serverName);
  const file = journalPath(stateDir, key);
  let j: Journal | null;
  try {
    j = readJournal(stateDir, key);
  } catch (err) {
    if (!(err instanceof UnreadableJournalError)) throw err;
    const s = salvage(file);
    const lab = s.labDatabase ?? labDatabase;
    const hand = byHand(file, lab, await knobsNow(admin, lab));
    return { file, state: 'unreadable', host: null, experimentDir: null, owner: null, error: err.reason, ...s, labDatabase: lab, ...hand };
  }
  if (!j) return null;
  // Live as a run would judge it: another session holds the journal's locks (labLock.ts). Only a login that cannot
  // see other sessions' locks falls back on the writer's process being alive on this machine.
  const live = j.changes.length ? await journalOwner(admin, j).catch((): LockHolder | null => null) : null;
  const blind = !identity.permissions.viewServerState;
  const running = live
    ? describeHolder(live)
    : blind && j.changes.length && !processGone(j.pid) && (!j.host || j.host === os.hostname())
      ? `process ${j.pid} on this machine`
      : null;
  const state = j.changes.length
    ? running
      ? 'live'
      : 'pending'
    : (j.eventSessions ?? []).some((s) => processGone(s.pid))
      ? 'pending'
      : 'live';
  return {
    file,
    state,
    pid: j.pid,
    host: j.host ?? null,
    createdAt: j.createdAt,
    labDatabase: j.labDatabase,
    experimentDir: j.experimentDir ?? null,
    owner: state === 'live' ? running : null,
    settings: settingsOf(j, j.changes.length ? await knobsNow(admin, j.labDatabase) : null),
    error: null,
    fix:
      state === 'pending'
        ? [
            `spinlab restore -c <connection> (puts ${j.changes.length ? 'the settings' : 'it'} back${j.experimentDir ? ` and completes the record in ${j.experimentDir}` : ''})`,
          ]
        : ['wait for it to end (it puts its settings back itself), or stop it: Ctrl+C in its terminal, Stop in its panel'],
  };
}

/** An experiment running now that holds this lab database or changes affinity, when no journal says so; else null. */
export async function runningCheck(admin: DbSession, labDatabase: string): Promise<string | null> {
  const lab = (await lockHolders(admin, labLockResource(labDatabase)).catch(() => []))[0];
  if (lab) return `an experiment of ${describeHolder(lab)} holds the lab database ${q(labDatabase)}`;
  const aff = (await lockHolders(admin, AFFINITY_LOCK).catch(() => [])).find((h) => h.mode === 'X');
  return aff ? `an experiment of ${describeHolder(aff)} holds the server's process affinity` : null;
}

/**
 * Why the restore journal could not be written in `stateDir`, or null when it could (checked without making
 * anything: the nearest folder that exists must be a folder this user may write in).
 */
export function journalFolderProblem(stateDir: string): string | null {
  const dir = path.resolve(stateDir, 'journal');
  let p = dir;
  while (!fs.existsSync(p) && path.dirname(p) !== p) p = path.dirname(p);
  try {
    if (!fs.statSync(p).isDirectory()) return `${p} is a file, not a folder`;
    fs.accessSync(p, fs.constants.W_OK);
    return null;
  } catch (err) {
    return failureReason(err);
  }
}

/** The settings a run changes are journaled first: without a journal folder they cannot run. */
const JOURNALED: readonly FeatureId[] = ['affinity', 'delayed-durability'];

/**
 * The report with the journal, any running experiment and the journal's folder added; `ok` false when any stands in
 * a run's way (a folder that cannot be written only for the features that change a setting).
 */
export function withExperiments(
  r: CheckReport,
  journal: CheckJournal | null,
  running: string | null,
  folder: { dir: string; problem: string | null } = { dir: '', problem: null },
): CheckReport {
  const features = folder.problem
    ? r.features.map((f) =>
        JOURNALED.includes(f.id)
          ? {
              ...f,
              canRun: false,
              reasons: [
                ...f.reasons,
                `the restore journal's folder ${path.join(folder.dir, 'journal')} cannot be written (${folder.problem}): a setting is journaled before it changes, so none can change; set SPINLAB_STATE_DIR to a folder you can write to (default ~/.spinlab).`,
              ],
            }
          : f,
      )
    : r.features;
  const canRun = r.asked.every((a) => features.find((f) => f.id === a)?.canRun);
  const held = !!journalBlocker({ journal, running }) && r.asked.some((f) => f !== 'watch');
  return { ...r, features, journal, running, ok: canRun && !held };
}
