// A real VS Code for the end-to-end tier: code-server 4.100.3 (installed by scripts/e2e-setup.sh in a cache folder,
// never a project dependency) with its own user-data and extensions folders in a temporary directory, the VSIX
// installed the way a user would, listening on a free loopback port with no auth. Stopped by its process group.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository root (this file runs from out/test/e2e). */
export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'e2e');
/** The VSIX under test: the one scripts/package.js builds, or SPINLAB_E2E_VSIX (e.g. one built in a clean worktree). */
export const VSIX = process.env.SPINLAB_E2E_VSIX ?? path.join(ROOT, 'spinlock-lab.vsix');

const CACHE = process.env.SPINLAB_E2E_CACHE ?? path.join(os.homedir(), '.cache', 'spinlab-e2e');
export const CODE_SERVER_ENTRY = path.join(CACHE, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

export const LIGHT_THEME = 'Default Light Modern';
export const DARK_THEME = 'Default Dark Modern';
/** The high-contrast theme's label in the theme picker (its settings id, 'Default High Contrast', also begins its light sibling's). */
export const HC_THEME = 'Dark High Contrast';

export interface CodeServerOptions {
  /** Extra user settings (merged over the defaults below). */
  settings?: Record<string, unknown>;
  /** Extra environment for the code-server process (and so for the extension host). */
  env?: Record<string, string>;
}

/** Thrown by a waitFor condition that knows it will never hold: waitFor rethrows it at once. */
export class GiveUp extends Error {
  override name = 'GiveUp';
}

/**
 * Polls `fn` until it returns a truthy value; throws `what` (with the last value or error) after `timeoutMs`, or at
 * once when `fn` throws GiveUp.
 */
export async function waitFor<T>(what: string, fn: () => T | Promise<T>, timeoutMs: number, everyMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  let lastError: unknown;
  for (;;) {
    try {
      last = await fn();
      if (last) return last as NonNullable<T>;
      lastError = undefined;
    } catch (e) {
      if (e instanceof GiveUp) throw e;
      lastError = e;
    }
    if (Date.now() >= deadline) {
      const detail = lastError
        ? `; last error: ${(lastError as Error).message ?? String(lastError)}`
        : `; last value: ${JSON.stringify(last)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.setTimeout(2000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

export class CodeServer {
  readonly dir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly workspace: string;
  readonly logFile: string;
  /** SPINLAB_STATE_DIR for the extension: its restore journal lives here, never in ~/.spinlab. */
  readonly stateDir: string;
  url = '';
  private proc: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly opts: CodeServerOptions = {}) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-e2e-'));
    this.userDataDir = path.join(this.dir, 'user-data');
    this.extensionsDir = path.join(this.dir, 'extensions');
    this.workspace = path.join(this.dir, 'workspace');
    this.stateDir = path.join(this.dir, 'state');
    this.logFile = path.join(this.dir, 'code-server.log');
    for (const d of [this.userDataDir, this.extensionsDir, this.workspace, this.stateDir, path.join(this.userDataDir, 'User')]) {
      fs.mkdirSync(d, { recursive: true });
    }
    this.writeSettings({});
    fs.writeFileSync(this.configFile, 'auth: none\ncert: false\n');
  }

  get settingsFile(): string {
    return path.join(this.userDataDir, 'User', 'settings.json');
  }

  /** Rewrites the user settings file: defaults, then the constructor's settings, then `extra`. VS Code watches it. */
  writeSettings(extra: Record<string, unknown>): void {
    const settings = {
      'security.workspace.trust.enabled': false,
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'workbench.colorTheme': LIGHT_THEME,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'chat.disableAIFeatures': true,
      'window.commandCenter': false,
      'workbench.layoutControl.enabled': false,
      ...this.opts.settings,
      ...extra,
    };
    fs.writeFileSync(this.settingsFile, JSON.stringify(settings, null, 2));
  }

  get configFile(): string {
    return path.join(this.dir, 'code-server.yaml');
  }

  private baseArgs(): string[] {
    return ['--config', this.configFile, '--user-data-dir', this.userDataDir, '--extensions-dir', this.extensionsDir];
  }

  private env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      SPINLAB_STATE_DIR: this.stateDir,
      // No update checks, no telemetry, no marketplace calls from the server side.
      CS_DISABLE_GETTING_STARTED_OVERRIDE: '1',
      // code-server keeps its own state (coder.json, heartbeats) under XDG folders: keep those in the temp dir too.
      XDG_DATA_HOME: path.join(this.dir, 'xdg-data'),
      XDG_CONFIG_HOME: path.join(this.dir, 'xdg-config'),
      ...this.opts.env,
    };
  }

  /** `code-server --install-extension VSIX`: the way a user installs it (an unpacked copy would be ignored). */
  installExtension(vsix = VSIX): void {
    if (!fs.existsSync(CODE_SERVER_ENTRY)) {
      throw new Error(`code-server is not installed at ${CODE_SERVER_ENTRY}: run scripts/e2e-setup.sh`);
    }
    if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing: run npm run build && node scripts/package.js`);
    const r = spawnSync(process.execPath, [CODE_SERVER_ENTRY, ...this.baseArgs(), '--install-extension', vsix], {
      env: this.env(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    fs.appendFileSync(this.logFile, `--- install-extension\n${r.stdout ?? ''}${r.stderr ?? ''}\n`);
    if (r.status !== 0 || !/was successfully installed/.test(r.stdout ?? '')) {
      throw new Error(
        `installing ${path.basename(vsix)} failed (exit ${r.status}): expected "was successfully installed", got:\n${r.stdout}${r.stderr}`,
      );
    }
    const installed = JSON.parse(fs.readFileSync(path.join(this.extensionsDir, 'extensions.json'), 'utf8')) as {
      identifier: { id: string };
    }[];
    if (!installed.some((e) => e.identifier.id === 'spinlock-lab.spinlock-lab')) {
      throw new Error(`extensions.json does not list spinlock-lab.spinlock-lab: ${JSON.stringify(installed.map((e) => e.identifier.id))}`);
    }
  }

  /** Starts code-server on a free loopback port with the workspace folder open; resolves once it answers HTTP. */
  async start(): Promise<void> {
    const port = await freePort();
    const log = fs.openSync(this.logFile, 'a');
    const args = [
      CODE_SERVER_ENTRY,
      ...this.baseArgs(),
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      this.workspace,
    ];
    const proc = spawn(process.execPath, args, { env: this.env(), stdio: ['ignore', log, log], detached: true });
    fs.closeSync(log);
    this.proc = proc;
    this.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    let exitCode: number | null = null;
    proc.once('exit', (code) => {
      exitCode = code ?? -1;
    });
    this.url = `http://127.0.0.1:${port}/`;
    await waitFor(
      `code-server to answer on ${this.url} (log: ${this.logFile})`,
      async () => {
        if (exitCode !== null) throw new Error(`code-server exited with ${exitCode}:\n${this.log().slice(-2000)}`);
        const status = await httpStatus(this.url);
        return status >= 200 && status < 400;
      },
      60_000,
      200,
    );
  }

  /** The URL that opens the workbench on the workspace folder. */
  get workbenchUrl(): string {
    return `${this.url}?folder=${encodeURIComponent(this.workspace)}`;
  }

  log(): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8');
    } catch {
      return '';
    }
  }

  /** The extension host's own logs (code-server keeps them under the user-data dir). */
  extensionHostLogs(): string {
    const out: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/exthost|remoteagent|spinlock/i.test(p) && p.endsWith('.log'))
          out.push(`--- ${path.relative(this.userDataDir, p)}\n${fs.readFileSync(p, 'utf8')}`);
      }
    };
    walk(path.join(this.userDataDir, 'logs'));
    return out.join('\n');
  }

  /** Copies the code-server log (and the extension host logs) into `dir`. */
  saveLogs(dir: string, prefix: string): void {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${prefix}-code-server.log`), this.log());
    fs.writeFileSync(path.join(dir, `${prefix}-exthost.log`), this.extensionHostLogs());
  }

  /** Stops the whole process group (code-server forks its extension host): SIGTERM, then SIGKILL after 5 s. */
  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (!proc || proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    const pgid = proc.pid;
    const kill = (sig: NodeJS.Signals) => {
      try {
        process.kill(-pgid, sig);
      } catch {
        /* already gone */
      }
    };
    kill('SIGTERM');
    const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5000).unref());
    if ((await Promise.race([this.exited.then(() => 'exited' as const), timer])) === 'timeout') kill('SIGKILL');
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 2000).unref())]);
    // Children that outlived the parent (the extension host) are in the same group.
    kill('SIGKILL');
  }

  /** Deletes the temporary folder (after stop). */
  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
