// Microsoft's SQL extension (ms-mssql.mssql) as the vscode API shows it: installed or not, its saved connections (its
// `mssql.connections` setting: no passwords there) and its exports. What we do with them is src/host/sqlExtension.ts.
// Light: activation's Activity Bar tree reads the list through this without loading the panel.
import * as vscode from 'vscode';
import type { SqlExtensionPort } from '../host/ports';
import { SQL_EXTENSION_ID } from '../host/sqlExtensionId';

export function vscodeSqlExtension(): SqlExtensionPort {
  return {
    savedProfiles() {
      if (!vscode.extensions.getExtension(SQL_EXTENSION_ID)) return null;
      const list = vscode.workspace.getConfiguration('mssql').get<unknown>('connections');
      return Array.isArray(list) ? list : [];
    },
    async exports(activate) {
      const ext = vscode.extensions.getExtension(SQL_EXTENSION_ID);
      if (!ext) return undefined;
      if (ext.isActive) return ext.exports as unknown;
      return activate ? ((await ext.activate()) as unknown) : undefined;
    },
  };
}
