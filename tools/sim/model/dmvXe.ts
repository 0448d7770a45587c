// sys.dm_xe_map_values (spinlock_types, wait_types, latch_class), sys.server_event_sessions, sys.dm_xe_sessions and sys.dm_xe_session_targets,
// served from the event sessions of model/xe.ts with the columns Microsoft's docs give them.
import { bufferOptions, PKG0, SQLOS, spinlockMapKey } from './xe';
import { LATCH_CLASSES, SPINLOCK_NAMES, WAIT_TYPES } from './names';
import { addr, cols, SystemView, T } from './types';

const uuid = (s: string) => s;

export const XE_VIEWS: SystemView[] = [
  {
    name: 'sys.dm_xe_map_values',
    scope: 'server',
    columns: () =>
      cols([
        ['name', T.nvarchar(256)],
        ['object_package_guid', { type: 'uniqueidentifier' }],
        ['map_key', T.int],
        ['map_value', T.nvarchar(3072)],
      ]),
    // Not only the spinlock types: the server's other sqlos maps share the view, and some values are in more than one
    // (DBTABLE is a spinlock and a latch class), so a reader must filter on the map's name. Their keys are synthetic.
    rows: (c) => [
      ...SPINLOCK_NAMES.map((n) => ['spinlock_types', uuid(SQLOS), spinlockMapKey(n, c.model.version)!, n]),
      ...WAIT_TYPES.map((n, i) => ['wait_types', uuid(SQLOS), i, n]),
      ...LATCH_CLASSES.map((n, i) => ['latch_class', uuid(SQLOS), i, n]),
    ],
  },
  {
    // Its docs page: "Requires VIEW SERVER STATE permission on the server." A catalog view, not a DMV: without the
    // permission it shows no row (metadata visibility) rather than failing the batch as sys.dm_xe_sessions does.
    name: 'sys.server_event_sessions',
    scope: 'public',
    columns: () =>
      cols([
        ['event_session_id', T.int],
        ['name', T.sysname],
        ['event_retention_mode', T.nchar(1)],
        ['event_retention_mode_desc', T.sysname],
        ['max_dispatch_latency', T.int],
        ['max_memory', T.int],
        ['max_event_size', T.int],
        ['memory_partition_mode', T.nchar(1)],
        ['memory_partition_mode_desc', T.sysname],
        ['track_causality', T.bit],
        ['startup_state', T.bit],
      ]),
    rows: (c) =>
      (c.model.canViewServerState(c.session.login) ? [...c.model.xe.sessions.values()] : []).map((s) => {
        const retention = s.options.EVENT_RETENTION_MODE ?? 'ALLOW_SINGLE_EVENT_LOSS';
        const latency = s.options.MAX_DISPATCH_LATENCY ?? '30 SECONDS';
        const partition = s.options.MEMORY_PARTITION_MODE ?? 'NONE';
        const kb = (v: string | undefined, d: number) => (v ? Number(v.split(' ')[0]) * (v.endsWith('MB') ? 1024 : 1) : d);
        return [
          s.id,
          s.name,
          retention === 'NO_EVENT_LOSS' ? 'N' : retention === 'ALLOW_MULTIPLE_EVENT_LOSS' ? 'M' : 'S',
          retention,
          latency === 'INFINITE' ? -1 : Number(latency.split(' ')[0]) * 1000,
          kb(s.options.MAX_MEMORY, 4096),
          kb(s.options.MAX_EVENT_SIZE, 0),
          partition === 'PER_NODE' ? 'N' : partition === 'PER_CPU' ? 'C' : 'G',
          partition,
          s.options.TRACK_CAUSALITY === 'ON',
          s.options.STARTUP_STATE === 'ON',
        ];
      }),
  },
  {
    name: 'sys.dm_xe_sessions',
    scope: 'server',
    columns: () =>
      cols([
        ['address', T.varbinary(8)],
        ['name', T.nvarchar(256)],
        ['pending_buffers', T.int],
        ['total_regular_buffers', T.int],
        ['regular_buffer_size', T.bigint],
        ['total_large_buffers', T.int],
        ['large_buffer_size', T.bigint],
        ['total_buffer_size', T.bigint],
        ['buffer_policy_flags', T.int],
        ['buffer_policy_desc', T.nvarchar(256)],
        ['flags', T.int],
        ['flag_desc', T.nvarchar(256)],
        ['dropped_event_count', T.int],
        ['dropped_buffer_count', T.int],
        ['blocked_event_fire_time', T.int],
        ['create_time', T.datetime],
        ['largest_event_dropped_size', T.int],
      ]),
    // The buffers and the drop counters follow the session's options and the events it fired (model/xeBuffers.ts).
    rows: (c) => {
      c.model.xe.expire(c.model);
      return [...c.model.xe.sessions.values()]
        .filter((s) => s.running)
        .map((s) => {
          const o = bufferOptions(s);
          const shape = c.model.xe.shape(c.model, s);
          const lost = c.model.xe.lost(c.model, s);
          const policy =
            o.retention === 'NO_EVENT_LOSS'
              ? 'do_not_drop_event'
              : o.retention === 'ALLOW_MULTIPLE_EVENT_LOSS'
                ? 'drop_full_buffer'
                : 'drop_event';
          return [
            addr(50_000 + s.running!.address),
            s.name,
            0,
            shape.regularBuffers,
            shape.regularBufferSize,
            0,
            0,
            o.maxMemoryBytes,
            0,
            policy,
            0,
            'dispatch_latency',
            lost.events,
            lost.buffers,
            0,
            s.running!.startedAt,
            0,
          ];
        });
    },
  },
  {
    name: 'sys.dm_xe_session_targets',
    scope: 'server',
    columns: () =>
      cols([
        ['event_session_address', T.varbinary(8)],
        ['target_name', T.nvarchar(60)],
        ['target_package_guid', { type: 'uniqueidentifier' }],
        ['execution_count', T.bigint],
        ['execution_duration_ms', T.bigint],
        ['target_data', T.nvarchar('max')],
      ]),
    rows: (c) =>
      [...c.model.xe.sessions.values()]
        .filter((s) => s.running)
        .flatMap((s) =>
          s.targets.map((t) => [
            addr(50_000 + s.running!.address),
            t.target.name,
            uuid(PKG0),
            0,
            0,
            t.target.name === 'histogram' ? c.model.xe.targetData(c.model, s) : null,
          ]),
        ),
  },
];
