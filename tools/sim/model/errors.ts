// SQL Server's messages as ERROR tokens.
import type { ServerMessage } from '../tds/contract';
import type { SimModel } from './instance';

export function err(number: number, message: string, cls = 16, state = 1, procName?: string): ServerMessage {
  return { kind: 'error', number, state, class: cls, message, ...(procName ? { procName } : {}) };
}

export class SqlError extends Error {
  constructor(readonly messages: ServerMessage[]) {
    super(messages.map((m) => m.message).join(' '));
  }
}

/** Msg 300 then Msg 297: missing VIEW SERVER STATE (2022+: VIEW SERVER PERFORMANCE STATE). */
export function serverStateDenied(m: SimModel): ServerMessage[] {
  const perm = m.version >= 16 ? 'VIEW SERVER PERFORMANCE STATE' : 'VIEW SERVER STATE';
  return [
    err(300, `${perm} permission was denied on object 'server', database 'master'.`, 14, 1),
    err(297, 'The user does not have permission to perform this action.', 16, 1),
  ];
}

export function databaseStateDenied(m: SimModel, db: string): ServerMessage[] {
  const perm = m.version >= 16 ? 'VIEW DATABASE PERFORMANCE STATE' : 'VIEW DATABASE STATE';
  return [
    err(300, `${perm} permission was denied on object '${db}', database '${db}'.`, 14, 1),
    err(297, 'The user does not have permission to perform this action.', 16, 1),
  ];
}

/**
 * Changing server settings without ALTER SETTINGS. Microsoft's docs name the permission but not the error; this is
 * Msg 15247, which SQL Server raises for server-level settings changes (sp_configure and the like) per public error
 * catalogues, so treat the number as unconfirmed for ALTER SERVER CONFIGURATION.
 */
export function alterSettingsDenied(): ServerMessage[] {
  return [err(15247, 'User does not have permission to perform this action.', 16, 1)];
}

export function unsupported(what: string): ServerMessage {
  const text = what.replace(/\s+/g, ' ').trim().slice(0, 120);
  return err(50000, `The Spinlock Lab simulator (synthetic numbers, not a SQL Server) does not support this statement: ${text}`, 16, 1);
}
