// Azure Data Studio's API, when this runs inside ADS: detected at run time (a bundler may turn a failed require into
// {}, so a missing `version` means absent). The context key gates the ADS-only Object Explorer menus.
import * as vscode from 'vscode';
import type * as azdataTypes from 'azdata';

export type AzdataApi = typeof azdataTypes;

export function loadAzdata(): AzdataApi | undefined {
  let api: Partial<AzdataApi> | undefined;
  try {
    api = require('azdata') as Partial<AzdataApi>;
  } catch {
    api = undefined;
  }
  return api && typeof api.version === 'string' && api.connection ? (api as AzdataApi) : undefined;
}

export async function setAzdataContext(api: AzdataApi | undefined): Promise<void> {
  await vscode.commands.executeCommand('setContext', 'spinlab.azdataAvailable', api !== undefined);
}

/** The password (or Entra token) ADS holds for an Object Explorer connection; empty when it has none. */
export async function azdataSecret(api: AzdataApi, connectionId: string): Promise<{ password?: string; accessToken?: string }> {
  const creds = await api.connection.getCredentials(connectionId);
  const password = typeof creds?.password === 'string' && creds.password ? creds.password : undefined;
  const token = typeof creds?.azureAccountToken === 'string' && creds.azureAccountToken ? creds.azureAccountToken : undefined;
  return { password, accessToken: token };
}
