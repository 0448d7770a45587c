// Secrets: the CLI (in-process main) and the panel controller (fake ports) run against the simulator with
// known passwords: a run that changes knobs, a notebook, CSV and T-SQL exports, a restore, a wrong password and a login
// without ALTER SETTINGS. Then every file written (results, samples.jsonl, experiment.json, notebooks, exports, the
// journal folder, including the journal as it stood mid-run), everything the fake host kept (settings, memento,
// profiles, log lines, toasts, confirmations, progress, clipboard), every message posted to the webview and everything
// printed is scanned for each password, and for its base64, base64url, URL-encoded and JSON-escaped forms.
// Also: the panel's Content-Security-Policy allows no inline or remote script.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { LabController } from '../../src/host/labController';
import { defaultProfile } from '../../src/host/profiles';
import { contentSecurityPolicy, makeNonce, panelHtml } from '../../src/host/html';
import { fakePorts } from '../unit/host/fakePorts';
import { tmp } from '../helpers/common';
import { mainCli as cli } from '../helpers/cliInProcess';
import { ask, resultOf } from '../helpers/host';

// Characters that encode differently in base64, base64url and URLs ('!', '#', '/', '+').
const SA_PW = 'Spin!ab#S3cret/Pw+42';
const TUNER_PW = 'Tun3r#Only/Settings+7!';
const WRONG_PW = 'Wr0ng#Guess/Pw+99!';
const SECRETS = [SA_PW, TUNER_PW, WRONG_PW];

function forms(secret: string): string[] {
  const b = Buffer.from(secret, 'utf8');
  return [
    secret,
    b.toString('base64'),
    b.toString('base64url'),
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret, 'utf16le').toString('base64'),
    b.toString('hex'),
  ];
}

/** Where each secret (in any form) shows up in `text`, labelled with `where`. */
function leaks(where: string, text: string): string[] {
  const out: string[] = [];
  for (const s of SECRETS)
    for (const f of forms(s)) if (text.includes(f)) out.push(`${where} holds ${JSON.stringify(s)} as ${JSON.stringify(f)}`);
  return out;
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/** Snapshots every file in `dir` while it exists (the journal lives only as long as a run), until stopped. */
function watchFolder(dir: string): { stop(): string[] } {
  const seen = new Map<string, string>();
  const grab = () => {
    for (const f of filesUnder(dir)) {
      try {
        seen.set(`${f}@${seen.size}`, fs.readFileSync(f, 'utf8'));
      } catch {
        /* renamed or removed meanwhile */
      }
    }
  };
  const timer = setInterval(grab, 10);
  return {
    stop() {
      clearInterval(timer);
      grab();
      return [...seen.values()];
    },
  };
}

const LOGINS = [
  { name: 'tuner', password: TUNER_PW, permissions: ['VIEW SERVER STATE', 'VIEW DATABASE STATE', 'CREATE ANY DATABASE'] as const },
];

it('the CLI: runs, exports, restore, a wrong password and a missing permission leave no password anywhere', () =>
  withSim({ password: SA_PW, logins: LOGINS.map((l) => ({ ...l, permissions: [...l.permissions] })) }, async (sim: Simulator) => {
    const stateDir = tmp('state');
    const work = tmp('cli');
    const outDir = path.join(work, 'run');
    const server = `Server=127.0.0.1,${sim.port};Encrypt=false`;
    const env = { SPINLAB_CONNECTION: `${server};User ID=sa`, SPINLAB_PASSWORD: SA_PW, SPINLAB_STATE_DIR: stateDir };
    const printed: string[] = [];
    const journal = watchFolder(path.join(stateDir, 'journal'));

    const run = await cli(
      [
        'run',
        '--scenario',
        'disk-insert',
        '--threads',
        '1,2',
        '--duration',
        '1s',
        '--warmup',
        '0s',
        '--interval',
        '250ms',
        '--delayed-durability',
        'forced',
        '--affinity',
        'exclude-core0',
        '--set',
        'seed_rows=0',
        '--out',
        outDir,
        '--notebook',
        path.join(work, 'run.ipynb'),
        '--title',
        'secrets',
      ],
      env,
    );
    printed.push(run.output);
    assert.equal(run.code, 0, run.output);
    const journalTexts = journal.stop();
    assert.ok(journalTexts.length >= 1, 'the journal was seen while the run had the knobs changed');

    // The password in the connection string itself (-c), as people also write it.
    const inline = await cli(
      [
        'run',
        '-c',
        `${server};User ID=sa;Password=${SA_PW}`,
        '--scenario',
        'disk-insert',
        '--threads',
        '1',
        '--duration',
        '500ms',
        '--warmup',
        '0s',
        '--interval',
        '250ms',
        '--no-deploy',
        '--set',
        'seed_rows=0',
        '--out',
        path.join(work, 'inline'),
        '--json',
      ],
      { SPINLAB_STATE_DIR: stateDir },
    );
    printed.push(inline.output);
    assert.equal(inline.code, 0, inline.output);

    const exp = await cli(
      ['export', outDir, '--notebook', path.join(work, 'export.ipynb'), '--csv', path.join(work, 'csv'), '--tsql', path.join(work, 'tsql')],
      {},
    );
    printed.push(exp.output);
    assert.equal(exp.code, 0, exp.output);
    for (const args of [['topology'], ['restore'], ['topology', '--json']]) {
      const r = await cli(args, env);
      printed.push(r.output);
      assert.equal(r.code, 0, r.output);
    }

    const wrong = await cli(
      ['run', '--scenario', 'disk-insert', '--threads', '1', '--duration', '500ms', '--out', path.join(work, 'wrong')],
      { ...env, SPINLAB_PASSWORD: WRONG_PW },
    );
    printed.push(wrong.output);
    assert.equal(wrong.code, 3, 'a connection error');
    assert.match(wrong.output, /Login failed/i);
    const wrongInline = await cli(['topology', '-c', `${server};User ID=sa;Password=${WRONG_PW}`], {});
    printed.push(wrongInline.output);
    assert.equal(wrongInline.code, 3, 'a connection error');

    const denied = await cli(
      [
        'run',
        '--scenario',
        'disk-insert',
        '--threads',
        '1',
        '--duration',
        '500ms',
        '--warmup',
        '0s',
        '--no-deploy',
        '--set',
        'seed_rows=0',
        '--affinity',
        'numa:0',
        '--out',
        path.join(work, 'denied'),
      ],
      { ...env, SPINLAB_CONNECTION: `${server};User ID=tuner`, SPINLAB_PASSWORD: TUNER_PW },
    );
    printed.push(denied.output);
    assert.equal(denied.code, 4, `a permission error: ${denied.output}`);
    assert.match(denied.output, /GRANT ALTER SETTINGS TO \[tuner\]/);

    const found: string[] = [];
    printed.forEach((t, i) => found.push(...leaks(`printed output ${i}`, t)));
    journalTexts.forEach((t) => found.push(...leaks('the journal mid-run', t)));
    const files = [...filesUnder(work), ...filesUnder(stateDir)];
    assert.ok(
      files.some((f) => f.endsWith('samples.jsonl')) &&
        files.some((f) => f.endsWith('.ipynb')) &&
        files.some((f) => f.endsWith('.csv')) &&
        files.some((f) => f.endsWith('.sql')),
      `every kind of file was written: ${files.join(', ')}`,
    );
    for (const f of files) found.push(...leaks(f, fs.readFileSync(f, 'latin1')));
    assert.deepEqual(found, []);
  })).timeout(180_000);

it('the panel: connect (password saved to SecretStorage only), run with knobs, notebook and exports, a wrong password, a missing permission, a bad message: no password anywhere else', () =>
  withSim({ password: SA_PW, logins: LOGINS.map((l) => ({ ...l, permissions: [...l.permissions] })) }, async (sim: Simulator) => {
    const stateDir = tmp('state');
    const work = tmp('panel');
    const ports = fakePorts({ resultsFolder: path.join(work, 'results') });
    const journal = watchFolder(path.join(stateDir, 'journal'));
    const c = new LabController(ports, { editor: 'vscode', stateDir });
    await c.start();
    const profile = (user: string) =>
      defaultProfile({
        id: `sim-${user}`,
        label: user,
        server: '127.0.0.1',
        port: sim.port,
        user,
        encrypt: 'optional',
        trustServerCertificate: true,
      });
    try {
      await c.receive({ type: 'connectionOpen', payload: { profile: profile('sa'), password: SA_PW, savePassword: true } });
      assert.equal(ports.lastState().connection.status, 'connected', JSON.stringify(ports.lastState().connection.error));
      const params = { seed_rows: 0, batch_size: 1 };
      const run = { mode: 'server-loop' as const, threads: '1,2', duration: '1s', rows: '', warmup: '0s', interval: '250ms' };
      await c.receive({
        type: 'selectionSave',
        payload: { scenarioId: 'disk-insert', parameters: params, run, knobs: { delayedDurability: 'FORCED', affinity: 'numa:1' } },
      });
      await c.receive({
        type: 'experimentRun',
        payload: {
          scenarioId: 'disk-insert',
          parameters: params,
          run,
          knobs: { delayedDurability: 'FORCED', affinity: 'numa:1' },
          title: 'secrets',
        },
      });
      const active = ports.lastState().active!;
      assert.equal(active.status, 'completed', active.message);
      const id = active.experimentId!;
      ports.saveFileAnswer = path.join(work, 'panel.ipynb');
      await c.receive({ type: 'experimentSaveNotebook', payload: { id } });
      ports.folderAnswer = path.join(work, 'exports');
      fs.mkdirSync(ports.folderAnswer, { recursive: true });
      await c.receive({ type: 'experimentExport', payload: { id, kind: 'csv' } });
      await c.receive({ type: 'experimentExport', payload: { id, kind: 'tsql' } });
      resultOf(await ask(c, ports, 'experimentOpen', { id }));
      await c.receive({ type: 'serverRestore', payload: {} });
      assert.equal(ports.lastState().lastError, null, JSON.stringify(ports.lastState().lastError));

      await c.receive({ type: 'connectionOpen', payload: { profile: profile('sa'), password: WRONG_PW, savePassword: false } });
      assert.equal(ports.lastState().connection.status, 'disconnected');
      assert.match(JSON.stringify(ports.lastState().connection.error), /Login failed/i);

      await c.receive({ type: 'connectionOpen', payload: { profile: profile('tuner'), password: TUNER_PW, savePassword: false } });
      assert.equal(ports.lastState().connection.status, 'connected', JSON.stringify(ports.lastState().connection.error));
      await c.receive({
        type: 'experimentRun',
        payload: { scenarioId: 'disk-insert', parameters: params, run, knobs: { delayedDurability: 'unchanged', affinity: 'numa:0' } },
      });
      const err = JSON.stringify([ports.lastState().lastError, ports.lastState().active]);
      assert.match(err, /GRANT ALTER SETTINGS TO \[tuner\]/, err);

      // A message the schema refuses, carrying a password: the refusal must not echo it.
      await c.receive({ type: 'connectionOpen', payload: { profile: profile('sa'), password: SA_PW.repeat(40), savePassword: 'yes' } });
      assert.match(ports.lastState().lastError!.message, /does not accept/);
    } finally {
      await c.dispose();
    }
    const journalTexts = journal.stop();
    assert.ok(journalTexts.length >= 1, 'the journal was seen while the run had the knobs changed');

    // SecretStorage is where a saved password belongs, and only the one asked for is there.
    assert.deepEqual([...ports.secretValues.values()], [SA_PW]);
    const found: string[] = [];
    const kept: [string, unknown][] = [
      ['posted webview messages', ports.posted],
      ['log lines', ports.lines],
      ['saved profiles', ports.savedProfiles],
      ['memento', [...ports.memento.entries()]],
      ['settings', ports.settingsValue],
      ['confirmations', ports.confirms],
      ['progress', [ports.progressTitles, ports.progressReports]],
      ['clipboard', ports.clipboard],
      ['revealed and opened', [ports.revealed, ports.opened]],
      ['the controller state', c.state],
    ];
    for (const [where, v] of kept) found.push(...leaks(where, JSON.stringify(v)));
    journalTexts.forEach((t) => found.push(...leaks('the journal mid-run', t)));
    const files = [...filesUnder(work), ...filesUnder(stateDir)];
    assert.ok(
      files.some((f) => f.endsWith('samples.jsonl')) &&
        files.some((f) => f.endsWith('.ipynb')) &&
        files.some((f) => f.endsWith('.csv')) &&
        files.some((f) => f.endsWith('.sql')),
      `every kind of file was written: ${files.join(', ')}`,
    );
    for (const f of files) found.push(...leaks(f, fs.readFileSync(f, 'latin1')));
    assert.deepEqual(found, []);
  })).timeout(180_000);

it("the panel's Content-Security-Policy: no inline or remote script, no eval, and the one script tag carries the nonce", () => {
  const cspSource = 'https://file+.vscode-resource.vscode-cdn.net';
  const nonce = makeNonce();
  assert.notEqual(nonce, makeNonce(), 'a fresh nonce each time');
  assert.ok(Buffer.from(nonce, 'base64').length >= 16, 'at least 128 bits');
  const html = panelHtml({ cspSource, nonce, scriptUri: `${cspSource}/dist/webview.js`, styleUri: `${cspSource}/media/panel.css` });
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(meta, 'a CSP meta tag');
  const csp = meta![1].replace(/&#39;|&apos;/g, "'").replace(/&amp;/g, '&');
  assert.equal(csp, contentSecurityPolicy(cspSource, nonce));
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name, values] as [string, string[]];
      }),
  );
  assert.deepEqual(directives.get('default-src'), ["'none'"], 'everything not named is refused');
  const scriptSrc = directives.get('script-src') ?? directives.get('default-src')!;
  assert.deepEqual(scriptSrc, [`'nonce-${nonce}'`], 'scripts only by nonce');
  for (const [name, values] of directives) {
    for (const v of values) {
      assert.ok(
        !["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'wasm-unsafe-eval'", '*', 'http:', 'https:', 'data:', 'blob:'].includes(
          v,
        ) ||
          (name === 'img-src' && v === 'data:'),
        `${name} allows ${v}`,
      );
      assert.ok(!/^https?:\/\//.test(v) || v === cspSource, `${name} allows a remote source ${v}`);
    }
  }
  assert.ok(!directives.has('script-src-elem') && !directives.has('script-src-attr'), 'no directive that would widen script-src');
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1, 'one script tag');
  assert.match(scripts[0][1], new RegExp(`\\bnonce="${nonce.replace(/[+/=]/g, (c) => `\\${c}`)}"`), 'the script tag carries the nonce');
  assert.match(scripts[0][1], /\bsrc="[^"]+"/, 'an external script');
  assert.equal(scripts[0][2].trim(), '', 'no inline script text');
  assert.ok(!/\son[a-z]+\s*=/i.test(html), 'no inline event handlers');
  assert.ok(!/<style\b|\sstyle\s*=/i.test(html), 'no inline style');
});

it('the scan finds a password in each form it looks for (so an empty result means something)', () => {
  for (const f of forms(SA_PW)) assert.equal(leaks('probe', `x${f}y`).length >= 1, true, f);
  assert.deepEqual(leaks('probe', 'Password=***;User ID=sa'), []);
});
