// sys.dm_os_* views: spinlocks, waits, latches, schedulers, nodes, sys info, process memory, performance counters.
import { cpuMask } from './topology';
import { addr, cols, pad, QueryContext, SystemView, T } from './types';
import type { Value } from '../tds/contract';

const f = Math.floor;

const spinlockStats: SystemView = {
  name: 'sys.dm_os_spinlock_stats',
  scope: 'server',
  columns: () =>
    cols([
      ['name', T.nvarchar(256)],
      ['collisions', T.bigint],
      ['spins', T.bigint],
      ['spins_per_collision', T.real],
      ['sleep_time', T.bigint],
      ['backoffs', T.bigint],
    ]),
  rows: (c) =>
    [...c.model.counters.spinlocks].map(([name, s]) => {
      const coll = f(s.collisions),
        spins = f(s.spins);
      return [name, coll, spins, coll > 0 ? spins / coll : 0, f(s.sleepMs), f(s.backoffs)];
    }),
};

const waitStats: SystemView = {
  name: 'sys.dm_os_wait_stats',
  scope: 'server',
  columns: () =>
    cols([
      ['wait_type', T.nvarchar(60)],
      ['waiting_tasks_count', T.bigint],
      ['wait_time_ms', T.bigint],
      ['max_wait_time_ms', T.bigint],
      ['signal_wait_time_ms', T.bigint],
    ]),
  rows: (c) =>
    [...c.model.counters.waits].map(([name, w]) => {
      const r = c.model.counters.waitRow(name, w);
      return [name, r.count, r.ms, r.count > 0 ? f(w.maxMs) : 0, r.signalMs];
    }),
};

const latchStats: SystemView = {
  name: 'sys.dm_os_latch_stats',
  scope: 'server',
  columns: () =>
    cols([
      ['latch_class', T.nvarchar(60)],
      ['waiting_requests_count', T.bigint],
      ['wait_time_ms', T.bigint],
      ['max_wait_time_ms', T.bigint],
    ]),
  rows: (c) => [...c.model.counters.latches].map(([name, w]) => [name, f(w.count), f(w.ms), f(w.count) > 0 ? f(w.maxMs) : 0]),
};

function schedulerRows(c: QueryContext): { id: number; cpu: number; node: number; status: string; online: boolean }[] {
  const m = c.model;
  const online = new Set(m.onlineCpus());
  const out = m.machine.cpus.map((cpu) => ({
    id: cpu.id,
    cpu: cpu.id,
    node: cpu.node,
    online: online.has(cpu.id),
    status: online.has(cpu.id) ? 'VISIBLE ONLINE' : 'VISIBLE OFFLINE',
  }));
  // Hidden schedulers: system work per node, and on node 0 the log writers (SQL Server 2016+: up to four, on core 0).
  let id = 1048576;
  for (let node = 0; node < m.machine.nodeCount; node++) {
    const first = m.machine.cpusOfNode(node)[0];
    const count = node === 0 ? 1 + logWriterCount(c) : 1;
    for (let k = 0; k < count; k++) out.push({ id: id++, cpu: node === 0 ? 0 : first, node, online: true, status: 'HIDDEN ONLINE' });
  }
  out.push({ id, cpu: 0, node: 64, online: true, status: 'VISIBLE ONLINE (DAC)' });
  return out;
}

export function logWriterCount(c: QueryContext): number {
  return Math.min(4, c.model.machine.nodeCount);
}
/** Scheduler ids of the log writers: hidden schedulers right after node 0's first hidden one. */
export function logWriterSchedulers(c: QueryContext): number[] {
  return Array.from({ length: logWriterCount(c) }, (_, i) => 1048577 + i);
}

const schedulers: SystemView = {
  name: 'sys.dm_os_schedulers',
  scope: 'server',
  columns: () =>
    cols([
      ['scheduler_address', T.varbinary(8)],
      ['parent_node_id', T.int],
      ['scheduler_id', T.int],
      ['cpu_id', T.smallint],
      ['status', T.nvarchar(60)],
      ['is_online', T.bit],
      ['is_idle', T.bit],
      ['preemptive_switches_count', T.int],
      ['context_switches_count', T.int],
      ['idle_switches_count', T.int],
      ['current_tasks_count', T.int],
      ['runnable_tasks_count', T.int],
      ['current_workers_count', T.int],
      ['active_workers_count', T.int],
      ['work_queue_count', T.bigint],
      ['pending_disk_io_count', T.int],
      ['load_factor', T.int],
      ['yield_count', T.int],
      ['last_timer_activity', T.bigint],
      ['failed_to_create_worker', T.bit],
      ['active_worker_address', T.varbinary(8)],
      ['memory_object_address', T.varbinary(8)],
      ['task_memory_object_address', T.varbinary(8)],
      ['quantum_length_us', T.bigint],
      ['total_cpu_usage_ms', T.bigint],
      ['total_cpu_idle_capped_ms', T.bigint],
      ['total_scheduler_delay_ms', T.bigint],
      ['ideal_workers_limit', T.int],
    ]),
  rows: (c) => {
    const m = c.model;
    const active = m.workloads.active();
    const ticks = m.msTicks();
    return schedulerRows(c).map((s) => {
      const tasks = active.filter((a) => a.placement.cpu === s.cpu && s.id < 1048576).length;
      const busy = f(s.id < 1048576 ? (m.counters.cpuBusyMs.get(s.cpu) ?? 0) : s.status === 'HIDDEN ONLINE' ? ticks / 200 : 0);
      const yields = f(busy / 4) % 2147483647;
      return [
        addr(s.id),
        s.node,
        s.id,
        s.cpu,
        s.status,
        s.online,
        tasks === 0,
        f(busy / 50) % 2147483647,
        (yields + 1000) % 2147483647,
        f(ticks / 4) % 2147483647,
        tasks + (s.online ? 1 : 0),
        Math.max(0, tasks - 1),
        tasks + (s.online ? 2 : 0),
        tasks + (s.online ? 1 : 0),
        0,
        0,
        tasks,
        yields,
        ticks,
        false,
        tasks ? addr(s.id + 7) : null,
        addr(s.id + 3),
        addr(s.id + 5),
        4000,
        busy,
        0,
        f(busy / 400),
        32,
      ] as Value[];
    });
  },
};

const nodes: SystemView = {
  name: 'sys.dm_os_nodes',
  scope: 'server',
  columns: () =>
    cols([
      ['node_id', T.smallint],
      ['node_state_desc', T.nvarchar(256)],
      ['memory_object_address', T.varbinary(8)],
      ['memory_clerk_address', T.varbinary(8)],
      ['io_completion_worker_address', T.varbinary(8)],
      ['memory_node_id', T.smallint],
      ['cpu_affinity_mask', T.bigint],
      ['online_scheduler_count', T.smallint],
      ['idle_scheduler_count', T.smallint],
      ['active_worker_count', T.int],
      ['avg_load_balance', T.int],
      ['timer_task_affinity_mask', T.bigint],
      ['permanent_task_affinity_mask', T.bigint],
      ['resource_monitor_state', T.bit],
      ['online_scheduler_mask', T.bigint],
      ['processor_group', T.smallint],
      ['cpu_count', T.int],
    ]),
  rows: (c) => {
    const m = c.model;
    const online = new Set(m.onlineCpus());
    const busy = new Set(m.workloads.active().map((a) => a.placement.cpu));
    const out: Value[][] = [];
    for (let node = 0; node < m.machine.nodeCount; node++) {
      const cpus = m.machine.cpusOfNode(node);
      const on = cpus.filter((x) => online.has(x));
      const mask = cpuMask(cpus);
      out.push([
        node,
        'ONLINE',
        addr(900 + node),
        addr(950 + node),
        addr(990 + node),
        m.machine.memoryNodeOf(node),
        mask,
        on.length,
        on.filter((x) => !busy.has(x)).length,
        on.length + cpus.filter((x) => busy.has(x)).length,
        0,
        mask,
        mask,
        true,
        cpuMask(on),
        Math.floor(cpus[0] / 64),
        cpus.length,
      ]);
    }
    out.push([64, 'ONLINE DAC', addr(1064), addr(1065), null, 0, 0n, 1, 1, 1, 0, 0n, 0n, false, 1n, 0, 1]);
    return out;
  },
};

const sysInfo: SystemView = {
  name: 'sys.dm_os_sys_info',
  scope: 'server',
  columns: () =>
    cols([
      ['cpu_ticks', T.bigint],
      ['ms_ticks', T.bigint],
      ['cpu_count', T.int],
      ['hyperthread_ratio', T.int],
      ['physical_memory_kb', T.bigint],
      ['virtual_memory_kb', T.bigint],
      ['committed_kb', T.bigint],
      ['committed_target_kb', T.bigint],
      ['visible_target_kb', T.bigint],
      ['stack_size_in_bytes', T.int],
      ['os_quantum', T.bigint],
      ['os_error_mode', T.int],
      ['os_priority_class', T.int],
      ['max_workers_count', T.int],
      ['scheduler_count', T.int],
      ['scheduler_total_count', T.int],
      ['deadlock_monitor_serial_number', T.int],
      ['sqlserver_start_time_ms_ticks', T.bigint],
      ['sqlserver_start_time', T.datetime],
      ['affinity_type', T.int],
      ['affinity_type_desc', T.nvarchar(60)],
      ['process_kernel_time_ms', T.bigint],
      ['process_user_time_ms', T.bigint],
      ['time_source', T.int],
      ['time_source_desc', T.nvarchar(60)],
      ['virtual_machine_type', T.int],
      ['virtual_machine_type_desc', T.nvarchar(60)],
      ['softnuma_configuration', T.int],
      ['softnuma_configuration_desc', T.nvarchar(60)],
      ['process_physical_affinity', T.nvarchar(3072)],
      ['sql_memory_model', T.int],
      ['sql_memory_model_desc', T.nvarchar(120)],
      ['socket_count', T.int],
      ['cores_per_socket', T.int],
      ['numa_node_count', T.int],
      ['container_type', T.int],
      ['container_type_desc', T.nvarchar(60)],
    ]),
  rows: (c) => {
    const m = c.model;
    const sh = m.machine.shape;
    const ticks = 90_000 + m.msTicks();
    const manual = m.affinity.type === 'MANUAL';
    const memModel = { CONVENTIONAL: 1, LOCK_PAGES: 2, LARGE_PAGES: 3 }[m.memoryModel];
    let userMs = 0;
    for (const v of m.counters.cpuBusyMs.values()) userMs += v;
    return [
      [
        m.cpuTicks(),
        ticks,
        m.machine.cpuCount,
        sh.coresPerSocket * sh.threadsPerCore,
        268_435_456n,
        137_438_953_344n,
        8_388_608n + BigInt(Math.min(f(ticks / 10), 1_048_576)),
        251_658_240n,
        251_658_240n,
        2_093_056,
        4,
        5,
        32,
        1152,
        m.onlineCpus().length,
        m.machine.cpuCount + m.machine.nodeCount + logWriterCount(c) + 1,
        0,
        90_000,
        m.startTime,
        manual ? 1 : 2,
        manual ? 'MANUAL' : 'AUTO',
        f(userMs / 20),
        f(userMs),
        0,
        'QUERY_PERFORMANCE_COUNTER',
        0,
        'NONE',
        m.machine.nodesPerSocket > 1 ? 1 : 0,
        m.machine.nodesPerSocket > 1 ? 'ON' : 'OFF',
        '',
        memModel,
        m.memoryModel,
        sh.sockets,
        sh.coresPerSocket,
        m.machine.nodeCount,
        0,
        'NONE',
      ],
    ];
  },
};

const processMemory: SystemView = {
  name: 'sys.dm_os_process_memory',
  scope: 'server',
  columns: () =>
    cols([
      ['physical_memory_in_use_kb', T.bigint],
      ['large_page_allocations_kb', T.bigint],
      ['locked_page_allocations_kb', T.bigint],
      ['total_virtual_address_space_kb', T.bigint],
      ['virtual_address_space_reserved_kb', T.bigint],
      ['virtual_address_space_committed_kb', T.bigint],
      ['virtual_address_space_available_kb', T.bigint],
      ['page_fault_count', T.bigint],
      ['memory_utilization_percentage', T.int],
      ['available_commit_limit_kb', T.bigint],
      ['process_physical_memory_low', T.bit],
      ['process_virtual_memory_low', T.bit],
    ]),
  rows: (c) => {
    const mm = c.model.memoryModel;
    const inUse = 9_437_184n;
    return [
      [
        inUse,
        mm === 'LARGE_PAGES' ? 8_388_608n : 0n,
        mm === 'CONVENTIONAL' ? 0n : mm === 'LARGE_PAGES' ? 8_388_608n : 9_175_040n,
        137_438_953_344n,
        270_532_608n,
        inUse,
        137_168_420_736n,
        2_100_000n,
        100,
        250_000_000n,
        false,
        false,
      ],
    ];
  },
};

const CNTR = { raw: 65792, rate: 272696576, rate32: 272696320 };
const perfCounters: SystemView = {
  name: 'sys.dm_os_performance_counters',
  scope: 'server',
  columns: () =>
    cols([
      ['object_name', T.nchar(128)],
      ['counter_name', T.nchar(128)],
      ['instance_name', T.nchar(128)],
      ['cntr_value', T.bigint],
      ['cntr_type', T.int],
    ]),
  rows: (c) => {
    const m = c.model;
    const out: Value[][] = [];
    const add = (obj: string, counter: string, inst: string, v: number, type: number) =>
      out.push([pad(`SQLServer:${obj}`), pad(counter), pad(inst), BigInt(f(v)), type]);
    const totals = { t: 0, w: 0, f: 0, b: 0, fw: 0, fwt: 0, fwr: 0 };
    for (const db of m.databases.values()) {
      const d = m.counters.db(db.name);
      // Managed Instance names a database's counters by its physical name, a GUID (its "Known issues" page).
      const inst = db.physicalName;
      const idle = m.counters.dataIo.get(db.name.toLowerCase());
      const t = d.transactions + (m.msTicks() / 1000) * 0.05 + (idle ? 0 : 0);
      add('Databases', 'Transactions/sec', inst, t, CNTR.rate);
      add('Databases', 'Write Transactions/sec', inst, d.writeTransactions, CNTR.rate);
      add('Databases', 'Log Flushes/sec', inst, d.logFlushes, CNTR.rate);
      add('Databases', 'Log Bytes Flushed/sec', inst, d.logBytes, CNTR.rate);
      add('Databases', 'Log Flush Waits/sec', inst, d.flushWaits, CNTR.rate);
      add('Databases', 'Log Flush Wait Time', inst, d.flushWaitMs, CNTR.raw);
      add('Databases', 'Log Flush Write Time (ms)', inst, d.flushWriteMs, CNTR.raw);
      add('Databases', 'Active Transactions', inst, m.workloads.active().filter((a) => a.database === db.name).length, CNTR.raw);
      totals.t += t;
      totals.w += d.writeTransactions;
      totals.f += d.logFlushes;
      totals.b += d.logBytes;
      totals.fw += d.flushWaits;
      totals.fwt += d.flushWaitMs;
      totals.fwr += d.flushWriteMs;
    }
    add('Databases', 'Transactions/sec', '_Total', totals.t, CNTR.rate);
    add('Databases', 'Write Transactions/sec', '_Total', totals.w, CNTR.rate);
    add('Databases', 'Log Flushes/sec', '_Total', totals.f, CNTR.rate);
    add('Databases', 'Log Bytes Flushed/sec', '_Total', totals.b, CNTR.rate);
    add('Databases', 'Log Flush Waits/sec', '_Total', totals.fw, CNTR.rate);
    add('Databases', 'Log Flush Wait Time', '_Total', totals.fwt, CNTR.raw);
    add('Databases', 'Log Flush Write Time (ms)', '_Total', totals.fwr, CNTR.raw);
    add('SQL Statistics', 'Batch Requests/sec', '', m.counters.batchRequests, CNTR.rate);
    // Ad hoc batches compile now and then; the monitors' statements over #temp tables count each (re)compile they make.
    add('SQL Statistics', 'SQL Compilations/sec', '', m.counters.batchRequests * 0.02 + m.counters.compilations, CNTR.rate);
    add('SQL Statistics', 'SQL Re-Compilations/sec', '', m.counters.recompilations, CNTR.rate);
    add('General Statistics', 'User Connections', '', m.sessions.size, CNTR.raw);
    add('Buffer Manager', 'Page life expectancy', '', 3600 + m.msTicks() / 1000, CNTR.raw);
    add('Memory Manager', 'Total Server Memory (KB)', '', 9_437_184, CNTR.raw);
    return out;
  },
};

export const OS_VIEWS: SystemView[] = [spinlockStats, waitStats, latchStats, schedulers, nodes, sysInfo, processMemory, perfCounters];
