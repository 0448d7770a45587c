// Microsoft's SQL extension's id, apart from sqlExtension.ts (its profiles, parsed with the message schemas) so that
// activation can look the extension up without loading those.
export const SQL_EXTENSION_ID = 'ms-mssql.mssql';
