// TDS 7.4 constants (MS-TDS 2.2). Only what the simulator speaks.

export const PacketType = {
  SQL_BATCH: 0x01,
  RPC: 0x03,
  REPLY: 0x04, // tabular result (server -> client)
  ATTENTION: 0x06,
  BULK_LOAD: 0x07,
  TRANSACTION_MANAGER: 0x0e,
  LOGIN7: 0x10,
  SSPI: 0x11,
  PRELOGIN: 0x12,
} as const;

export const PacketStatus = {
  EOM: 0x01,
  IGNORE: 0x02,
  RESET_CONNECTION: 0x08,
  RESET_CONNECTION_SKIP_TRAN: 0x10,
} as const;

export const HEADER_LENGTH = 8;
export const MIN_PACKET_SIZE = 512;
export const MAX_PACKET_SIZE = 32767;
export const DEFAULT_PACKET_SIZE = 4096;

/** TDS 7.4 as sent in LOGINACK (big-endian on the wire). */
export const TDS_VERSION_7_4 = 0x74000004;
/** LOGIN7's TDSVersion from a TDS 8 (strict encryption) client. */
export const TDS_VERSION_8 = 0x08000000;

export const Token = {
  RETURNSTATUS: 0x79,
  COLMETADATA: 0x81,
  ORDER: 0xa9,
  ERROR: 0xaa,
  INFO: 0xab,
  RETURNVALUE: 0xac,
  LOGINACK: 0xad,
  FEATUREEXTACK: 0xae,
  ROW: 0xd1,
  NBCROW: 0xd2,
  ENVCHANGE: 0xe3,
  DONE: 0xfd,
  DONEPROC: 0xfe,
  DONEINPROC: 0xff,
} as const;

export const DoneStatus = {
  FINAL: 0x0000,
  MORE: 0x0001,
  ERROR: 0x0002,
  INXACT: 0x0004,
  COUNT: 0x0010,
  ATTN: 0x0020,
  SRVERROR: 0x0100,
} as const;

/** CurCmd values SQL Server puts in DONE tokens (informational; tedious ignores them). */
export const CurCmd = { SELECT: 0xc1, INSERT: 0xc3, DELETE: 0xc4, EXECUTE: 0xe0, NONE: 0x00 } as const;

export const EnvChange = {
  DATABASE: 1,
  LANGUAGE: 2,
  PACKET_SIZE: 4,
  SQL_COLLATION: 7,
  BEGIN_TXN: 8,
  COMMIT_TXN: 9,
  ROLLBACK_TXN: 10,
  RESET_CONNECTION_ACK: 18,
} as const;

export const FeatureId = { UTF8_SUPPORT: 0x0a, TERMINATOR: 0xff } as const;

/** Data type ids (MS-TDS 2.2.5.4). */
export const TypeId = {
  NULL: 0x1f,
  INT1: 0x30,
  BIT: 0x32,
  INT2: 0x34,
  INT4: 0x38,
  DATETIM4: 0x3a,
  FLT4: 0x3b,
  MONEY: 0x3c,
  DATETIME: 0x3d,
  FLT8: 0x3e,
  MONEY4: 0x7a,
  INT8: 0x7f,
  GUID: 0x24,
  INTN: 0x26,
  DATEN: 0x28,
  TIMEN: 0x29,
  DATETIME2N: 0x2a,
  DATETIMEOFFSETN: 0x2b,
  BITN: 0x68,
  DECIMALN: 0x6a,
  NUMERICN: 0x6c,
  FLTN: 0x6d,
  MONEYN: 0x6e,
  DATETIMN: 0x6f,
  IMAGE: 0x22,
  TEXT: 0x23,
  NTEXT: 0x63,
  SSVARIANT: 0x62,
  BIGVARBIN: 0xa5,
  BIGVARCHR: 0xa7,
  BIGBINARY: 0xad,
  BIGCHAR: 0xaf,
  NVARCHAR: 0xe7,
  NCHAR: 0xef,
  XML: 0xf1,
} as const;

/**
 * SQL_Latin1_General_CP1_CI_AS, the default server collation: LCID 0x0409, flags (ignore case/kana/width),
 * sort id 52 (code page 1252).
 */
export const DEFAULT_COLLATION = Buffer.from([0x09, 0x04, 0xd0, 0x00, 0x34]);

/** RPC procedures sent by id instead of name (MS-TDS 2.2.6.6). */
export const WELL_KNOWN_PROCS: Record<number, string> = {
  1: 'sp_cursor',
  2: 'sp_cursoropen',
  3: 'sp_cursorprepare',
  4: 'sp_cursorexecute',
  5: 'sp_cursorprepexec',
  6: 'sp_cursorunprepare',
  7: 'sp_cursorfetch',
  8: 'sp_cursoroption',
  9: 'sp_cursorclose',
  10: 'sp_executesql',
  11: 'sp_prepare',
  12: 'sp_execute',
  13: 'sp_prepexec',
  14: 'sp_prepexecrpc',
  15: 'sp_unprepare',
};

/** Raised for bytes that cannot be a valid TDS stream: the connection is closed. */
export class ProtocolError extends Error {}

/** Raised for a well-formed request the simulator does not support: answered with an ERROR token. */
export class UnsupportedError extends Error {}
