// Requests between the panel's webview and the host (src/shared/requests.ts, src/webview/requests.ts): the host checks
// each question against its params schema and always answers, with the result or the failure; the webview checks each
// answer against the result schema, and for a question asked again keeps only the newest asking's answer, however
// late an earlier one arrives.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { request, RequestRouter, type Answer, type RequestEnvelope } from '../../src/shared/requests';
import { RequestClient, RequestFailed } from '../../src/webview/requests';

const Q = {
  double: request('double', z.object({ n: z.number().int() }), z.object({ twice: z.number() })),
  fail: request('fail', z.object({}), z.object({})),
} as const;

function router() {
  return new RequestRouter<typeof Q>(Q)
    .on(Q.double, (p) => ({ twice: p.n * 2 }))
    .on(Q.fail, () => {
      throw new Error('the server went away');
    });
}
const toError = (e: unknown) => ({ message: (e as Error).message, fix: 'try again' });

describe('the host answers every request', () => {
  it("with the handler's result, under the request's id", async () => {
    assert.deepEqual(await router().answer({ type: 'request', id: 7, method: 'double', params: { n: 21 } }, toError), {
      id: 7,
      ok: true,
      result: { twice: 42 },
    });
  });

  it('with the failure when the handler throws', async () => {
    assert.deepEqual(await router().answer({ type: 'request', id: 8, method: 'fail', params: {} }, toError), {
      id: 8,
      ok: false,
      error: { message: 'the server went away', fix: 'try again' },
    });
  });

  it('with what is wrong when the params fail their schema or the method is unknown; never a handler run', async () => {
    let ran = false;
    const r = new RequestRouter<typeof Q>(Q).on(Q.double, () => {
      ran = true;
      return { twice: 0 };
    });
    const bad = await r.answer({ type: 'request', id: 1, method: 'double', params: { n: 'x' } }, toError);
    assert.ok(bad && !bad.ok && /double: n should be a number, but was text "x"/.test(bad.error.message), JSON.stringify(bad));
    const unknown = await r.answer({ type: 'request', id: 2, method: 'constructor', params: {} }, toError);
    assert.ok(unknown && !unknown.ok && /unknown request "constructor"/.test(unknown.error.message), JSON.stringify(unknown));
    const unhandled = await r.answer({ type: 'request', id: 3, method: 'fail', params: {} }, toError);
    assert.ok(
      unhandled && !unhandled.ok && /unknown request "fail"/.test(unhandled.error.message),
      'a known type with no handler is not answered as if handled',
    );
    assert.equal(ran, false);
  });

  it('not at all when there is no id to answer to', async () => {
    for (const id of [undefined, -1, 1.5, '3', null]) {
      assert.equal(await router().answer({ type: 'request', id, method: 'double', params: { n: 1 } }, toError), null, String(id));
    }
  });
});

describe("the webview's request client", () => {
  function client() {
    const sent: RequestEnvelope[] = [];
    return { sent, c: new RequestClient((e) => sent.push(e)) };
  }
  const ok = <R>(id: number, result: R): Answer<R> => ({ id, ok: true, result });

  it('sends the envelope and resolves with the checked result', async () => {
    const { sent, c } = client();
    const p = c.send(Q.double, { n: 2 });
    assert.deepEqual(sent, [{ type: 'request', id: 1, method: 'double', params: { n: 2 } }]);
    assert.equal(c.receive(ok(1, { twice: 4 })), true);
    assert.deepEqual(await p, { twice: 4 });
    assert.equal(c.outstanding, 0);
    assert.equal(c.receive(ok(1, { twice: 4 })), false, 'an answer is taken once');
  });

  it("rejects with the host's failure, and with its own words when the answer fails the result schema", async () => {
    const { c } = client();
    const failed = c.send(Q.double, { n: 2 });
    c.receive({ id: 1, ok: false, error: { message: 'not connected', fix: 'Connect first.', category: 'connection' } });
    await assert.rejects(
      failed,
      (e: unknown) =>
        e instanceof RequestFailed &&
        e.error.message === 'not connected' &&
        e.error.fix === 'Connect first.' &&
        e.category === 'connection',
    );
    const wrong = c.send(Q.double, { n: 2 });
    c.receive(ok(2, { twice: 'four' }));
    await assert.rejects(
      wrong,
      (e: unknown) =>
        e instanceof RequestFailed &&
        e.category === 'internal' &&
        /answered double with something the panel does not accept/.test(e.message),
    );
    // A failure that names no category the panel knows is taken for a bug.
    const odd = c.send(Q.double, { n: 2 });
    c.receive({ id: 3, ok: false, error: { message: 'odd', category: 'weather' } });
    await assert.rejects(odd, (e: unknown) => e instanceof RequestFailed && e.category === 'internal');
  });

  it("a slow answer to an earlier asking arrives after the newer one's: only the newest asking gets its answer", async () => {
    const { sent, c } = client();
    const first = c.latest('double', Q.double, { n: 1 });
    const second = c.latest('double', Q.double, { n: 2 });
    assert.deepEqual(
      sent.map((e) => e.id),
      [1, 2],
    );
    c.receive(ok(2, { twice: 4 }));
    c.receive(ok(1, { twice: 2 }));
    assert.deepEqual(await second, { kind: 'result', result: { twice: 4 } });
    assert.deepEqual(await first, { kind: 'superseded' });
    // The same when the earlier asking's answer comes first: it was replaced by the time it came, so it is dropped.
    const third = c.latest('double', Q.double, { n: 3 });
    const fourth = c.latest('double', Q.double, { n: 4 });
    c.receive(ok(3, { twice: 6 }));
    c.receive({ id: 4, ok: false, error: { message: 'gone', category: 'connection' } });
    assert.deepEqual(await third, { kind: 'superseded' });
    assert.deepEqual(await fourth, { kind: 'error', error: { message: 'gone', category: 'connection' } });
    assert.equal(c.outstanding, 0);
  });

  it('questions are separate: a newer asking of one never drops the answer to another', async () => {
    const { c } = client();
    const a = c.latest('plan of A', Q.double, { n: 1 });
    const b = c.latest('plan of B', Q.double, { n: 2 });
    c.receive(ok(2, { twice: 4 }));
    c.receive(ok(1, { twice: 2 }));
    assert.deepEqual(await a, { kind: 'result', result: { twice: 2 } });
    assert.deepEqual(await b, { kind: 'result', result: { twice: 4 } });
  });
});
