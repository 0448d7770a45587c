// Form validation as typed: parameters, run settings, connection drafts, In-Memory OLTP advice.
import assert from 'node:assert/strict';
import { checkParams, checkRun, needsXtp, xtpAlternative } from '../../../src/webview/model/validation';
import { checkForm, emptyDraft, formFromSelection, paramsForSelect, profileFromDraft, profileIdFor } from '../../../src/webview/model/form';
import * as b from '../../helpers/builders';

const scenarios = b.scenarios();
const disk = scenarios.find((s) => s.id === 'disk-insert')!;
const ring = scenarios.find((s) => s.id === 'ring-buffer')!;
const inmem = scenarios.find((s) => s.id === 'inmem-insert')!;

it('parameters: typed text coerced, each error the shared parser message naming the parameter', () => {
  const ok = checkParams(disk, { batch_size: '2', seed_rows: '10k' });
  assert.deepEqual(ok, { values: { batch_size: 2, seed_rows: 10000 }, errors: {} });
  const bad = checkParams(disk, { batch_size: 'abc', seed_rows: '-1' });
  assert.match(bad.errors.batch_size, /^Parameter batch_size \(Rows per transaction\): .*not a whole number/);
  assert.match(bad.errors.seed_rows, /too small/);
  assert.equal(bad.values.batch_size, 1, 'the default stands in for an invalid value');
});

it('run settings: a sweep, a duration or rows (not both), units required', () => {
  const base = { mode: 'server-loop' as const, threads: '1-4,8', duration: '30s', rows: '', warmup: '0s', interval: '250ms' };
  assert.deepEqual(checkRun(base), { errors: {}, threads: [1, 2, 3, 4, 8] });
  assert.match(checkRun({ ...base, rows: '1M' }).errors.length ?? '', /not both/);
  assert.match(checkRun({ ...base, duration: '' }).errors.length ?? '', /Give a duration/);
  assert.match(checkRun({ ...base, duration: '30' }).errors.duration ?? '', /add a unit/);
  assert.match(checkRun({ ...base, threads: '4-1' }).errors.threads ?? '', /runs backwards/);
  assert.match(checkRun({ ...base, interval: '50ms' }).errors.interval ?? '', /under 100ms/);
});

it('In-Memory OLTP: when it is needed, and what to pick instead', () => {
  assert.equal(needsXtp(disk, { batch_size: 1 }), false);
  assert.equal(needsXtp(inmem, {}), true);
  assert.equal(needsXtp(ring, { storage: 'disk', slot_source: 'sequence' }), false);
  assert.equal(needsXtp(ring, { storage: 'memory', slot_source: 'sequence' }), true);
  const alt = xtpAlternative(ring, { storage: 'memory', slot_source: 'identity', durability: 'SCHEMA_AND_DATA' }, scenarios);
  assert.deepEqual(alt.parameters, { storage: 'disk', slot_source: 'sequence' });
  assert.deepEqual(
    alt.scenarios.map((s) => s.id),
    ['disk-insert'],
  );
  assert.equal(xtpAlternative(inmem, {}, scenarios).parameters, null, 'always needs it: only another scenario helps');
});

it('the whole form: valid, or blocked by any invalid field', () => {
  const state = b.connectedState();
  const form = formFromSelection(state.selection);
  const topo = state.server!.topology;
  assert.equal(checkForm(form, scenarios, topo).valid, true);
  assert.equal(checkForm({ ...form, knobs: { ...form.knobs, affinity: 'cpu:99' } }, scenarios, topo).valid, false);
  const typed = { ...form, params: { batch_size: 'x', seed_rows: '1k' } };
  const c = checkForm(typed, scenarios, topo);
  assert.equal(c.valid, false);
  assert.deepEqual(paramsForSelect(typed, c), { batch_size: 'x', seed_rows: 1000 }, 'valid values coerced, invalid text kept as typed');
});

it('connection drafts become profiles the host schema accepts, or field errors', () => {
  const d = { ...emptyDraft(), server: 'lab1.contoso.local', port: '14330', user: 'sa' };
  const r = profileFromDraft(d);
  assert.ok(r.ok);
  assert.equal(r.profile.port, 14330);
  assert.equal(r.profile.id, 'lab1-contoso-local-14330');
  assert.equal(r.profile.label, 'lab1.contoso.local');
  const bad = profileFromDraft({ ...d, port: '99999', server: '' });
  assert.ok(!bad.ok);
  assert.match(bad.errors.port, /1 to 65535/);
  assert.match(bad.errors.server, /server name/);
  assert.ok(profileFromDraft({ ...d, authentication: 'entra', user: '' }).ok, 'Entra needs no user');
  assert.equal(profileIdFor({ ...d, id: 'kept' }), 'kept');
});
