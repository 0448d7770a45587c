// LabController without a server: every message from the webview is checked before a handler sees it (wrong type,
// missing fields, oversized strings, junk), and rejected ones leave a logged reason and a lastError, never a crash;
// profiles, selection, clipboard, stop and dispose through messages.
import assert from 'node:assert/strict';
import { LabController } from '../../../src/host/labController';
import { defaultProfile } from '../../../src/host/profiles';
import { fakePorts, tmpDir } from './fakePorts';

function controller() {
  const ports = fakePorts();
  const c = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state') });
  return { ports, c };
}

const validSelect = {
  scenarioId: 'disk-insert',
  parameters: { batch_size: 2 },
  run: { mode: 'server-loop', threads: '1,2', duration: '10s', rows: '', warmup: '0s', interval: '1s' },
  knobs: { delayedDurability: 'FORCED', affinity: 'exclude-core0' },
};

const rejected: [string, unknown, RegExp][] = [
  ['not an object', 'ready', /a message must be an object/],
  ['null', null, /a message must be an object/],
  ['an array', [1, 2], /unknown message type/],
  ['no type', { payload: {} }, /unknown message type undefined/],
  ['an unknown type', { type: 'dropDatabase', payload: {} }, /unknown message type "dropDatabase"/],
  ['a prototype key as type', { type: 'constructor', payload: {} }, /unknown message type "constructor"/],
  ['a non-string type', { type: 7, payload: {} }, /unknown message type 7/],
  ['a missing field', { type: 'connectionOpen', payload: { profile: defaultProfile() } }, /connectionOpen: savePassword/],
  ['a wrong field type', { type: 'profilePick', payload: { id: 5 } }, /profilePick: id/],
  [
    'a bad enum',
    { type: 'selectionSave', payload: { ...validSelect, run: { ...validSelect.run, mode: 'turbo' } } },
    /selectionSave: run\.mode/,
  ],
  [
    'an oversized password',
    { type: 'connectionOpen', payload: { profile: defaultProfile({ user: 'sa' }), password: 'p'.repeat(513), savePassword: false } },
    /connectionOpen: password/,
  ],
  [
    'an oversized thread list',
    { type: 'experimentRun', payload: { ...validSelect, run: { ...validSelect.run, threads: '1,'.repeat(101) } } },
    /experimentRun: run\.threads/,
  ],
  ['repetitions of 0', { type: 'experimentRun', payload: { ...validSelect, repeat: 0 } }, /experimentRun: repeat/],
  ['repetitions past 100', { type: 'experimentRun', payload: { ...validSelect, repeat: 101 } }, /experimentRun: repeat/],
  [
    'repetitions as text',
    {
      type: 'presetRun',
      payload: { presetId: 'writelog', settings: {}, load: { ...validSelect.run, threads: '' }, repeat: '3' },
    },
    /presetRun: repeat/,
  ],
  [
    'a tune of an unknown kind of workload',
    {
      type: 'tuneStart',
      payload: {
        workload: { kind: 'database', name: 'master' },
        mode: 'server-loop',
        objective: 'throughput',
        budget: '10m',
        sessions: '',
        affinity: [],
        batchSizes: '',
        allowForced: false,
        sharedServer: false,
      },
    },
    /tuneStart: workload/,
  ],
  [
    'a tune with FORCED as text',
    {
      type: 'tuneStart',
      payload: {
        workload: { kind: 'preset', presetId: 'writelog' },
        mode: 'server-loop',
        objective: 'throughput',
        budget: '10m',
        sessions: '',
        affinity: [],
        batchSizes: '',
        allowForced: 'yes',
        sharedServer: false,
      },
    },
    /tuneStart: allowForced/,
  ],
  ['an oversized clipboard text', { type: 'clipboardCopy', payload: { text: 'x'.repeat(1_000_001) } }, /clipboardCopy: text/],
  [
    'too many parameters',
    {
      type: 'scenarioDeploy',
      payload: { scenarioId: 'disk-insert', parameters: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, 1])) },
    },
    /scenarioDeploy: parameters/,
  ],
  ['a junk payload', { type: 'experimentStop', payload: 'junk' }, /experimentStop: payload should be an object, but was text "junk"/],
  [
    'an id that came as an object (a tree element)',
    { type: 'experimentReveal', payload: { id: { id: 'experiment:2026-x' } } },
    /experimentReveal: id should be text, but was an object \{"id":"experiment:2026-x"\}/,
  ],
  ['a bad experiment id', { type: 'experimentReveal', payload: { id: '../../etc/passwd' } }, /experimentReveal: id: not an experiment id/],
  [
    'a profile id with slashes',
    { type: 'profileSave', payload: { profile: { ...defaultProfile(), id: 'a/b' } } },
    /profileSave: profile\.id/,
  ],
  [
    'a lab database name with ]',
    { type: 'profileSave', payload: { profile: { ...defaultProfile(), labDatabase: 'x]; DROP' } } },
    /profileSave: profile\.labDatabase/,
  ],
];

for (const [what, raw, why] of rejected) {
  it(`rejected: ${what}`, async () => {
    const { ports, c } = controller();
    await c.receive(raw);
    const s = ports.lastState();
    assert.match(s.lastError!.message, why);
    assert.match(s.lastError!.message, /^The panel sent a message the extension does not accept/);
    assert.ok(
      ports.lines.some((l) => /^warn rejected a message from the webview: /.test(l) && why.test(l)),
      ports.lines.join('\n'),
    );
    assert.equal(ports.savedProfiles.length, 0);
    assert.equal(ports.memento.size, 0);
    assert.equal(ports.secretCalls.length, 0);
    assert.equal(ports.clipboard.length, 0);
    assert.ok(!JSON.stringify(ports.posted).includes('p'.repeat(513)));
  });
}

it('extra fields are dropped before a handler sees them (a password smuggled into a profile is never saved)', async () => {
  const { ports, c } = controller();
  const profile = { ...defaultProfile({ id: 'p1', server: 'db1', user: 'sa' }), password: 'smuggled', extra: { deep: true } };
  await c.receive({ type: 'profileSave', payload: { profile, junk: 1 }, junk: 2 });
  assert.equal(ports.lastState().lastError, null);
  assert.deepEqual(Object.keys(ports.savedProfiles[0][0]).sort(), Object.keys(defaultProfile()).sort());
  assert.ok(!JSON.stringify(ports.savedProfiles).includes('smuggled'));
  assert.ok(!JSON.stringify(ports.posted).includes('smuggled'));
});

it('profiles: save, pick, new, delete (with its saved password)', async () => {
  const { ports, c } = controller();
  await c.start();
  const p = defaultProfile({ id: 'p1', server: 'db1', user: 'sa' });
  await c.receive({ type: 'profileSave', payload: { profile: p } });
  assert.equal(ports.lastState().profiles[0].label, 'db1', 'an empty label becomes the server');
  await c.receive({ type: 'profilePick', payload: { id: null } });
  assert.notEqual(ports.lastState().draft?.id, 'p1');
  await c.receive({ type: 'profilePick', payload: { id: 'p1' } });
  assert.equal(ports.lastState().draft?.id, 'p1');
  ports.secretValues.set('spinlab.password.p1', 'pw');
  await c.receive({ type: 'profileDelete', payload: { id: 'p1' } });
  assert.deepEqual(ports.lastState().profiles, []);
  assert.equal(ports.secretValues.has('spinlab.password.p1'), false);
  // A new controller (a reloaded window) starts from the saved profiles.
  await c.receive({ type: 'profileSave', payload: { profile: p } });
  const again = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state') });
  assert.deepEqual(
    again.state.profiles.map((x) => x.id),
    ['p1'],
  );
});

it('the selection is kept across a reload; a stored selection of the wrong shape falls back to the default', async () => {
  const { ports, c } = controller();
  await c.receive({ type: 'selectionSave', payload: validSelect });
  const again = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state') });
  assert.deepEqual(again.state.selection, validSelect);
  ports.memento.set('spinlab.selection', { scenarioId: 'disk-insert', run: 'fast' });
  const third = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state') });
  assert.equal(third.state.selection.run.threads, '1,2,4');
});

it('work that needs a server says to connect first; stop with nothing running is harmless', async () => {
  const { ports, c } = controller();
  for (const m of [
    { type: 'experimentRun', payload: validSelect },
    { type: 'scenarioDeploy', payload: { scenarioId: 'disk-insert', parameters: {} } },
    { type: 'serverRestore', payload: {} },
  ]) {
    await c.receive(m);
    assert.deepEqual(ports.lastState().lastError, { message: 'Not connected to a server.', fix: 'Connect first.', action: 'connect' });
  }
  await c.receive({ type: 'experimentStop', payload: {} });
  assert.equal(c.stop(), false);
});

it('a SQL login with no password typed and none saved is asked for it; nothing is stored', async () => {
  const { ports, c } = controller();
  await c.receive({
    type: 'connectionOpen',
    payload: { profile: defaultProfile({ id: 'p2', server: '127.0.0.1', port: 1, user: 'sa' }), savePassword: true },
  });
  const e = ports.lastState().connection.error!;
  assert.match(e.message, /Enter the password for 127\.0\.0\.1,1 as sa/);
  assert.equal(e.action, 'connect');
  assert.deepEqual(
    ports.secretCalls.map((x) => x.op),
    ['get'],
  );
});

it('a refused connection says nothing is listening, with the Connect action; the typed password is not stored or shown', async () => {
  const { ports, c } = controller();
  await c.receive({
    type: 'connectionOpen',
    payload: {
      profile: defaultProfile({ id: 'p3', server: '127.0.0.1', port: 1, user: 'sa', encrypt: 'optional' }),
      password: 'Typed-Pw-9',
      savePassword: true,
    },
  });
  const s = ports.lastState();
  assert.equal(s.connection.status, 'disconnected');
  assert.match(s.connection.error!.message, /^Could not reach a SQL Server at 127\.0\.0\.1,1; no login was attempted/);
  assert.match(s.connection.error!.fix!, /Check the Server and Port fields/);
  assert.equal(s.connection.error!.control, 'server', 'shown beside the Server field');
  assert.equal(s.connection.error!.action, 'connect');
  assert.equal(ports.secretCalls.filter((x) => x.op === 'store').length, 0, 'a failed connection keeps no password');
  assert.ok(!JSON.stringify(ports.posted).includes('Typed-Pw-9'));
  assert.ok(!ports.lines.join('\n').includes('Typed-Pw-9'));
});

it('Entra asks the host for a token; the token is never posted or logged', async () => {
  const { ports, c } = controller();
  await c.receive({
    type: 'connectionOpen',
    payload: {
      profile: defaultProfile({ id: 'p4', server: '127.0.0.1', port: 1, authentication: 'entra', encrypt: 'optional' }),
      savePassword: false,
    },
  });
  assert.equal(ports.lastState().connection.status, 'disconnected');
  assert.ok(!JSON.stringify(ports.posted).includes(ports.entraToken));
  assert.ok(!ports.lines.join('\n').includes(ports.entraToken));
  assert.equal(ports.secretCalls.length, 0);
});

it('clipboardCopy goes to the clipboard with a toast; the Object Explorer prefill fills the form', async () => {
  const { ports, c } = controller();
  await c.receive({ type: 'clipboardCopy', payload: { text: 'a\tb' } });
  assert.deepEqual(ports.clipboard, ['a\tb']);
  assert.equal(ports.ofType('toast').at(-1)?.payload.message, 'Copied');
  const filled = c.prefill(defaultProfile({ server: 'oe-server', user: 'u' }));
  assert.equal(ports.lastState().draft?.server, 'oe-server');
  assert.equal(filled.server, 'oe-server');
});

it('dispose is idempotent and the controller refuses work afterwards', async () => {
  const { ports, c } = controller();
  const a = c.dispose();
  assert.equal(c.dispose(), a);
  await a;
  const n = ports.posted.length;
  await c.receive({ type: 'ready', payload: {} });
  await c.receive({ type: 'clipboardCopy', payload: { text: 'x' } });
  assert.equal(ports.posted.length, n);
  assert.deepEqual(ports.clipboard, []);
  assert.throws(() => c.prefill(defaultProfile()), /panel was closed/);
});

it("a question is answered to the asker, a wrong one too; only one with no id to answer is the panel's error", async () => {
  const { ports, c } = controller();
  await c.receive({
    type: 'request',
    id: 4,
    method: 'presetPreview',
    params: {
      presetId: 'writelog',
      settings: {},
      load: { mode: 'server-loop', threads: '', duration: '', rows: '', warmup: '', interval: '' },
    },
  });
  const said = () => {
    const a = ports.ofType('response').at(-1)!.payload;
    return `${a.id}: ${a.ok ? '(a result)' : a.error.message}`;
  };
  assert.match(said(), /^4: Not connected/);
  await c.receive({ type: 'request', id: 5, method: 'experimentOpen', params: { id: '../../etc/passwd' } });
  assert.match(said(), /^5: .*experimentOpen: id: not an experiment id/);
  await c.receive({ type: 'request', id: 6, method: 'dropDatabase', params: {} });
  assert.match(said(), /^6: .*unknown request "dropDatabase"/);
  assert.equal(c.state.lastError, null, "answered questions leave the panel's error alone");
  await c.receive({ type: 'request', method: 'experimentOpen', params: { id: 'x' } });
  assert.match(ports.lastState().lastError?.message ?? '', /does not accept \(a request needs a whole-number id\)/);
  assert.equal(ports.ofType('response').length, 3);
  await c.dispose();
  await c.receive({ type: 'request', id: 7, method: 'experimentOpen', params: { id: 'x' } });
  assert.equal(ports.ofType('response').length, 3, 'nothing is answered once the panel closed');
});
