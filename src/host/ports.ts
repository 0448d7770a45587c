// What the panel's application logic (this src/host layer) needs from the editor it runs in (VS Code, Azure Data
// Studio, or a test): one interface, so LabController runs in plain Node. "HostPorts" means the editor host's ports;
// src/extension/vscodePorts.ts implements them over the vscode API.
import type { ConnectionProfile, ToWebviewMessage } from '../shared/protocol';

export interface SecretsPort {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Saved connection profiles: never a secret in them. */
export interface ProfileStore {
  load(): ConnectionProfile[];
  save(profiles: ConnectionProfile[]): Promise<void>;
}

/** Memento-like persistence for small values (the form's selection). */
export interface StatePort {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Promise<void>;
}

export interface HostSettings {
  /** spinlab.confirmServerChanges */
  confirmServerChanges: boolean;
  /** Where experiments are saved: spinlab.resultsFolder, or the extension's storage folder when that is empty. */
  resultsFolder: string;
}

/** A progress report: a message and, optionally, how far along (0-100, as a step since the last report). */
export type ProgressReport = (update: { message?: string; increment?: number }) => void;

export interface LogPort {
  /** One line in the output channel. Never a password or a token. */
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** What the editor tells us about Microsoft's SQL extension (host/sqlExtension.ts; src/extension/sqlExtension.ts). */
export interface SqlExtensionPort {
  /** Its `mssql.connections` setting as read, or null when the SQL extension is not installed. */
  savedProfiles(): unknown[] | null;
  /** Its exports: activating it first when `activate`, else only when it is already active (undefined if not). */
  exports(activate: boolean): Promise<unknown>;
}

export interface HostPorts {
  /** Sends a message to the webview; a hidden or closed webview drops it (it asks again with `ready`). */
  post(message: ToWebviewMessage): void;
  secrets: SecretsPort;
  profiles: ProfileStore;
  state: StatePort;
  /**
   * A modal question in a few lines; true when the user chose `actionLabel`. `more`, when given, is offered behind a
   * "Show details" button (the question is asked again with it).
   */
  confirm(title: string, detail: string, actionLabel: string, more?: string): Promise<boolean>;
  /** Runs `task` under a cancellable progress notification; its Cancel aborts `signal`. */
  withProgress<T>(title: string, task: (report: ProgressReport, signal: AbortSignal) => Promise<T>): Promise<T>;
  /** An access token for Azure SQL (https://database.windows.net//.default). */
  getEntraToken(): Promise<string>;
  copyToClipboard(text: string): Promise<void>;
  /** Shows a file or folder in the OS file manager. */
  revealPath(path: string): Promise<void>;
  /** Asks where to save a file; undefined when the user cancels. */
  pickSaveFile(defaultName: string, filters: Record<string, string[]>): Promise<string | undefined>;
  /** Asks for a folder; undefined when the user cancels. */
  pickFolder(title: string): Promise<string | undefined>;
  /** Opens a file in the editor (a notebook opens in the notebook editor). */
  openFile(path: string): Promise<void>;
  log: LogPort;
  settings(): HostSettings;
  /** Microsoft's SQL extension; absent where there is none to ask (Azure Data Studio, the tests that do not stub it). */
  sqlExtension?: SqlExtensionPort;
}

/** The SecretStorage key for a profile's password. */
export function passwordKey(profileId: string): string {
  return `spinlab.password.${profileId}`;
}
