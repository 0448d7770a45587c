import assert from 'node:assert/strict';
import { BENIGN_WAITS, filterWaits, hiddenWaitTypes, isBenignWait, isWaitShown, waitShownByCount } from '../../src/shared/benign';

it('the list holds the reference names exactly, once each', () => {
  assert.equal(BENIGN_WAITS.length, 78);
  assert.equal(new Set(BENIGN_WAITS).size, BENIGN_WAITS.length);
  for (const n of ['LAZYWRITER_SLEEP', 'CXCONSUMER', 'XE_TIMER_EVENT', 'WAIT_XTP_CKPT_CLOSE', 'PVS_PREALLOCATE']) {
    assert.ok(isBenignWait(n), n);
  }
  assert.ok(Object.isFrozen(BENIGN_WAITS));
});

it('workload waits are not benign; matching is exact', () => {
  for (const n of ['WRITELOG', 'CXPACKET', 'PAGELATCH_EX', 'SOS_SCHEDULER_YIELD', 'LOGMGR_QUEUE_X', 'lazywriter_sleep']) {
    assert.equal(isBenignWait(n), false, n);
  }
});

it('default filter hides benign and zero-count waits; showAll shows everything', () => {
  const waits = {
    WRITELOG: { count: 5, waitMs: 10, signalMs: 1 },
    LAZYWRITER_SLEEP: { count: 3, waitMs: 3000, signalMs: 0 },
    PAGELATCH_EX: { count: 0, waitMs: 0, signalMs: 0 },
  };
  assert.deepEqual(Object.keys(filterWaits(waits)), ['WRITELOG']);
  assert.deepEqual(hiddenWaitTypes(waits), ['LAZYWRITER_SLEEP', 'PAGELATCH_EX']);
  assert.deepEqual(Object.keys(filterWaits(waits, { showAll: true })), Object.keys(waits));
  assert.deepEqual(hiddenWaitTypes(waits, { showAll: true }), []);
  assert.equal(isWaitShown('WRITELOG', { count: 0 }), false);
});

it('waitShownByCount decides per wait type what isWaitShown decides per wait', () => {
  for (const type of ['WRITELOG', 'LAZYWRITER_SLEEP', 'CXPACKET'])
    for (const showAll of [false, true])
      for (const count of [0, 1, NaN]) {
        const byType = waitShownByCount(type, { showAll });
        const shown = typeof byType === 'boolean' ? byType : byType(count);
        assert.equal(shown, isWaitShown(type, { count }, { showAll }), `${type} showAll=${showAll} count=${count}`);
      }
  assert.equal(waitShownByCount('LAZYWRITER_SLEEP'), false);
  assert.equal(waitShownByCount('WRITELOG', { showAll: true }), true);
  assert.equal(typeof waitShownByCount('WRITELOG'), 'function');
});
