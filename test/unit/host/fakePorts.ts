// HostPorts for tests: records what the controller posts, logs, stores and asks, and answers as told.
import { tmp as tmpDir } from '../../helpers/common';
import type { HostPorts, HostSettings, ProgressReport } from '../../../src/host/ports';
import type { ConnectionProfile, PanelState, ToWebviewMessage } from '../../../src/shared/protocol';

export interface FakePorts extends HostPorts {
  posted: ToWebviewMessage[];
  lines: string[];
  secretCalls: { op: 'get' | 'store' | 'delete'; key: string; value?: string }[];
  secretValues: Map<string, string>;
  savedProfiles: ConnectionProfile[][];
  confirms: { title: string; detail: string; actionLabel: string; more?: string }[];
  /** What confirm answers. */
  confirmAnswer: boolean;
  progressTitles: string[];
  progressReports: { message?: string; increment?: number }[];
  /** Presses Cancel on the current progress notification. */
  cancelProgress(): void;
  clipboard: string[];
  revealed: string[];
  /** What pickSaveFile / pickFolder answer (undefined: the user cancelled), and what was opened. */
  saveFileAnswer: string | undefined;
  folderAnswer: string | undefined;
  opened: string[];
  memento: Map<string, unknown>;
  settingsValue: HostSettings;
  entraToken: string;
  lastState(): PanelState;
  ofType<T extends ToWebviewMessage['type']>(type: T): Extract<ToWebviewMessage, { type: T }>[];
}

// The host tests' name for the shared scratch folder.
export { tmpDir };

export function fakePorts(over: Partial<HostSettings> = {}): FakePorts {
  let progressAc: AbortController | null = null;
  const f: FakePorts = {
    posted: [],
    lines: [],
    secretCalls: [],
    secretValues: new Map(),
    savedProfiles: [],
    confirms: [],
    confirmAnswer: true,
    progressTitles: [],
    progressReports: [],
    clipboard: [],
    revealed: [],
    saveFileAnswer: undefined,
    folderAnswer: undefined,
    opened: [],
    memento: new Map(),
    settingsValue: { confirmServerChanges: true, resultsFolder: tmpDir('results'), ...over },
    entraToken: 'entra-token-xyz',
    post(m) {
      // What postMessage does: a structured clone, so later changes to the state do not alter what was sent.
      f.posted.push(structuredClone(m));
    },
    secrets: {
      async get(key) {
        f.secretCalls.push({ op: 'get', key });
        return f.secretValues.get(key);
      },
      async store(key, value) {
        f.secretCalls.push({ op: 'store', key, value });
        f.secretValues.set(key, value);
      },
      async delete(key) {
        f.secretCalls.push({ op: 'delete', key });
        f.secretValues.delete(key);
      },
    },
    profiles: {
      load: () => structuredClone(f.savedProfiles.at(-1) ?? []),
      async save(p) {
        f.savedProfiles.push(structuredClone(p));
      },
    },
    state: {
      get: <T>(key: string) => f.memento.get(key) as T | undefined,
      async update(key, value) {
        f.memento.set(key, structuredClone(value));
      },
    },
    async confirm(title, detail, actionLabel, more) {
      f.confirms.push({ title, detail, actionLabel, more });
      return f.confirmAnswer;
    },
    async withProgress<T>(title: string, task: (report: ProgressReport, signal: AbortSignal) => Promise<T>): Promise<T> {
      f.progressTitles.push(title);
      progressAc = new AbortController();
      try {
        return await task((u) => f.progressReports.push(u), progressAc.signal);
      } finally {
        progressAc = null;
      }
    },
    cancelProgress() {
      progressAc?.abort();
    },
    async getEntraToken() {
      return f.entraToken;
    },
    async copyToClipboard(text) {
      f.clipboard.push(text);
    },
    async revealPath(p) {
      f.revealed.push(p);
    },
    async pickSaveFile() {
      return f.saveFileAnswer;
    },
    async pickFolder() {
      return f.folderAnswer;
    },
    async openFile(p) {
      f.opened.push(p);
    },
    log: {
      info: (l) => f.lines.push(`info ${l}`),
      warn: (l) => f.lines.push(`warn ${l}`),
      error: (l) => f.lines.push(`error ${l}`),
    },
    settings: () => f.settingsValue,
    lastState() {
      const s = f.ofType('state').at(-1);
      if (!s) throw new Error('no state posted yet');
      return s.payload.state;
    },
    ofType<T extends ToWebviewMessage['type']>(type: T) {
      return f.posted.filter((m): m is Extract<ToWebviewMessage, { type: T }> => m.type === type);
    },
  };
  return f;
}
