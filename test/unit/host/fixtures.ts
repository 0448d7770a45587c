// Server facts for host unit tests: a 2-socket, 6-core, hyperthreaded box (24 CPUs, node 0 = 0-11, node 1 = 12-23).
import type { ServerIdentity, Topology } from '../../../src/shared/types';
import type { KnobState } from '../../../src/shared/experiment';
import type { ServerFacts } from '../../../src/host/runRequest';

export function topology(): Topology {
  const schedulers = Array.from({ length: 24 }, (_, cpu) => ({
    schedulerId: cpu,
    cpuId: cpu,
    nodeId: Math.floor(cpu / 12),
    status: 'VISIBLE ONLINE',
    isOnline: true,
  }));
  return {
    cpuCount: 24,
    hyperthreadRatio: 12,
    socketCount: 2,
    coresPerSocket: 6,
    numaNodeCount: 2,
    softNuma: 'OFF',
    memoryModel: 'CONVENTIONAL',
    largePageAllocationsKb: 0,
    lockedPageAllocationsKb: 0,
    affinityType: 'AUTO',
    schedulers,
    nodes: [0, 1].map((n) => ({ nodeId: n, state: 'ONLINE', onlineSchedulerCount: 12, cpuCount: 12, processorGroup: 0 })),
    logWriters: [],
    traceFlags: null,
  };
}

export function identity(over: Partial<ServerIdentity> = {}): ServerIdentity {
  return {
    serverName: 'LAB1',
    machineName: 'LAB1',
    productVersion: '16.0.4135.4',
    majorVersion: 16,
    edition: 'Developer Edition (64-bit)',
    engineEdition: 3,
    versionBanner: 'Microsoft SQL Server 2022',
    simulated: false,
    xtpSupported: true,
    defaultDataPath: null,
    startTime: '',
    login: 'tuner',
    permissions: { viewServerState: true, alterSettings: true, viewDatabaseState: null },
    ...over,
  };
}

export const AUTO_KNOBS: KnobState = {
  delayedDurability: 'DISABLED',
  affinity: { type: 'AUTO', cpus: Array.from({ length: 24 }, (_, i) => i) },
};

export function facts(over: Partial<ServerFacts> = {}): ServerFacts {
  return { identity: identity(), topology: topology(), knobs: AUTO_KNOBS, labDatabase: 'SpinlockLab', ...over };
}
