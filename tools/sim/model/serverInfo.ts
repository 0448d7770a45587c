// What the server says about itself: its global variables (@@VERSION, @@SPID...), the version banner and
// SERVERPROPERTY, per version and platform, as the executor's built-ins (exec/builtins.ts) answer them.
import type { SqlType, Value } from '../tds/contract';
import { QueryContext, T } from './types';
import { sessionState } from './sessionState';
import { dataPath } from './dmvDb';

interface Typed {
  v: Value;
  type: SqlType;
}

/** The server's global variables (@@VERSION, @@SPID, ...), as the executor's built-ins answer them. */
export function serverGlobal(ctx: QueryContext, name: string): Typed | undefined {
  const m = ctx.model;
  switch (name) {
    case '@@version':
      return { v: versionBanner(ctx), type: T.nvarchar(300) };
    case '@@spid':
      return { v: ctx.session.spid, type: T.smallint };
    case '@@servername':
      return { v: m.serverName, type: T.nvarchar(128) };
    case '@@trancount':
      return { v: sessionState(ctx.session).tranCount, type: T.int };
    case '@@language':
      return { v: 'us_english', type: T.nvarchar(128) };
    case '@@microsoftversion':
      return { v: m.productMajor * 16777216, type: T.int };
    default:
      return undefined;
  }
}

export function versionBanner(ctx: QueryContext): string {
  const v = ctx.model.versionInfo;
  if (ctx.model.managedInstance) {
    return (
      `Microsoft SQL Azure (RTM) - ${v.build} (X64) \n\tSpinlock Lab simulator imitating Azure SQL Managed Instance: synthetic numbers, not a SQL Server\n` +
      '\tCopyright (C) 2022 Microsoft Corporation\n'
    );
  }
  return (
    `Microsoft SQL Server ${v.year} (Spinlock Lab simulator: synthetic numbers, not a SQL Server) - ${v.build} (X64) \n` +
    `\tSpinlock Lab simulated instance\n\tSpinlock Lab Simulator Edition (64-bit) on Simulated Windows Server 2022 <X64>\n`
  );
}

export function serverProperty(ctx: QueryContext, prop: string): Typed {
  const m = ctx.model;
  const s = (v: string | null): Typed => ({ v, type: T.nvarchar(128) });
  const i = (v: number | null): Typed => ({ v, type: T.int });
  switch (prop.toLowerCase()) {
    case 'productversion':
      return s(m.versionInfo.build);
    case 'productmajorversion':
      return s(String(m.productMajor));
    case 'productminorversion':
      return s('0');
    case 'productlevel':
      return s('RTM');
    // Managed Instance: 'SQL Azure' and EngineEdition 8 (SERVERPROPERTY; T-SQL differences page, System functions).
    case 'edition':
      return s(m.managedInstance ? 'SQL Azure' : 'Spinlock Lab Simulator Edition (64-bit)');
    case 'engineedition':
      return i(m.managedInstance ? 8 : 3); // 3: Enterprise-class engine, every feature the lab uses
    case 'editionid':
      return i(-1);
    case 'isxtpsupported':
      return i(1);
    // Managed Instance places every file itself (T-SQL differences page): no path to give.
    case 'instancedefaultdatapath':
      return s(m.managedInstance ? null : dataPath(m));
    case 'instancedefaultlogpath':
      return s(m.managedInstance ? null : dataPath(m));
    case 'machinename':
      return s(m.serverName);
    case 'servername':
      return s(m.serverName);
    case 'instancename':
      return s(null);
    case 'isclustered':
    case 'ishadrenabled':
    case 'issingleuser':
      return i(0);
    case 'collation':
      return s('SQL_Latin1_General_CP1_CI_AS');
    case 'processid':
      return i(process.pid);
    default:
      return s(null);
  }
}
