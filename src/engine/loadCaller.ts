// One workload session's client-loop call, by either path: the lean path (a prebuilt RPC on a connection taken over
// at the socket, src/db/lean/) or the ordinary driver (an RpcChannel over tedious). load.ts's loop only moves the
// offset and calls; which path a session uses is decided once per phase (WorkloadSessions.leanChannels).
import { rpcArg, type DbSession } from '../db/client';
import type { LeanChannel } from '../db/lean/leanChannel';
import { leanRpcShape } from '../db/lean/rpcRequest';
import type { ProcArg } from '../db/params';
import type { PhaseResult } from './loadDriver';

export interface Caller {
  setOffset(offset: number): void;
  call(): Promise<void>;
  release(): void;
}

/** Why these arguments cannot take the lean path (a type other than an integer, a NULL), or null when they can. */
export function leanShapeRefusal(procedure: string, args: readonly ProcArg[]): string | null {
  return leanRpcShape(procedure, args, Number.MAX_SAFE_INTEGER);
}

/** The session's caller for one phase: on `lean` when it has one, else on its connection from the pool. */
export async function openCaller(
  s: DbSession,
  lean: LeanChannel | null,
  procedure: string,
  args: ProcArg[],
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Caller> {
  const at = args.findIndex((a) => a.name === 'offset');
  if (lean) {
    const request = lean.prepare(procedure, args);
    lean.bind(signal);
    return {
      setOffset: (offset) => {
        if (at >= 0) request.set(at, offset);
      },
      call: () => lean.call(request, timeoutMs),
      release: () => lean.bind(null),
    };
  }
  const typed = args.map(rpcArg);
  const channel = await s.rpcChannel(signal);
  return {
    setOffset: (offset) => {
      if (at >= 0) typed[at].value = offset;
    },
    call: () => channel.call(procedure, typed),
    release: () => channel.release(),
  };
}

/** Which path the client loop's calls took (src/engine/loadCaller.ts), and why not the lean one where it was refused. */
export function clientPathNote(p: NonNullable<PhaseResult['clientPath']>): string {
  const n = (k: number) => `${k} session${k === 1 ? '' : 's'}`;
  if (!p.driver) return `client path: lean (prebuilt RPC on the socket) on all ${n(p.lean)}`;
  const why = p.refused ? ` (lean path refused: ${p.refused})` : ' (--client-path driver)';
  return p.lean
    ? `client path: lean on ${n(p.lean)}, the driver on ${n(p.driver)}${why}`
    : `client path: the driver on all ${n(p.driver)}${why}`;
}
