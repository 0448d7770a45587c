// A refused message in words: the field and what came, except a secret's value, which never reaches the log or the
// panel (a password typed into the connection form that the schema refuses).
import assert from 'node:assert/strict';
import { z } from 'zod';
import { issueWords } from '../../src/shared/issueWords';

const PW = 'Hunter2#Secret/Pw+1';
const schema = z.object({ profile: z.object({ server: z.string() }), password: z.string().max(512), savePassword: z.boolean() });
const words = (payload: unknown) => {
  const r = schema.safeParse(payload);
  assert.equal(r.success, false);
  return issueWords('connectionOpen', (r as { error: z.ZodError }).error, payload);
};

describe('issueWords', () => {
  it('names the field and quotes what came for an ordinary field', () => {
    const w = words({ profile: { server: 42 }, password: PW, savePassword: true });
    assert.match(w, /^connectionOpen: profile\.server should be text, but was a number 42$/);
  });

  it('never quotes a password, whatever is wrong with it: its length instead', () => {
    const w = words({ profile: { server: 's' }, password: PW.repeat(40), savePassword: true });
    assert.ok(!w.includes(PW), w);
    assert.match(w, /password: .*\(it was text of 760 characters \(not shown: a secret\)\)$/);
  });

  it('hides a secret nested in an object that is quoted', () => {
    const w = words({ profile: { server: 's', password: PW }, password: 7, savePassword: true });
    assert.ok(!w.includes(PW), w);
    const nested = issueWords('x', z.object({ p: z.string() }).safeParse({ p: { password: PW, user: 'sa' } }).error!, {
      p: { password: PW, user: 'sa' },
    });
    assert.ok(!nested.includes(PW), nested);
    assert.match(nested, /"user":"sa"/);
  });
});
