// The last write of an experiment's record on a full disk: the whole record, else a smaller one marked failed with the
// reason, else (the stale copy removed to free its space, and still no room) no record: never the copy from during
// the run, which says "running". /dev/full answers every write with ENOSPC; a folder where the temporary file goes
// makes every write fail.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RecordNotSavedError, saveLastRecord, writeLast } from '../../src/engine/recordSave';
import { failureReason } from '../../src/engine/outFiles';
import { experiment } from '../helpers/builders';
import { tmp } from '../helpers/common';

describe('the last write of a record', () => {
  const stale = JSON.stringify({ status: 'running' });

  it('writes the whole record when it can', () => {
    const file = path.join(tmp('last'), 'experiment.json');
    fs.writeFileSync(file, stale);
    assert.deepEqual(
      writeLast(file, 'whole', () => 'smaller'),
      { onDisk: 'whole', error: null },
    );
    assert.equal(fs.readFileSync(file, 'utf8'), 'whole');
  });

  it('a write that fails once: the smaller record replaces the stale one', () => {
    const file = path.join(tmp('last'), 'experiment.json');
    fs.writeFileSync(file, stale);
    fs.symlinkSync('/dev/full', `${file}.tmp-${process.pid}`);
    const r = writeLast(file, 'whole', (cause) => `smaller: ${failureReason(cause)}`);
    assert.equal(r.onDisk, 'smaller');
    assert.equal(fs.readFileSync(file, 'utf8'), 'smaller: the disk is full (ENOSPC)');
  });

  it('no write succeeds: the stale "running" copy is removed, and the answer says no record is on disk', () => {
    const file = path.join(tmp('last'), 'experiment.json');
    fs.writeFileSync(file, stale);
    fs.mkdirSync(`${file}.tmp-${process.pid}`);
    fs.writeFileSync(path.join(`${file}.tmp-${process.pid}`, 'x'), 'keeps the folder');
    const r = writeLast(file, 'whole', () => 'smaller');
    assert.equal(r.onDisk, 'none');
    assert.ok(r.error);
    assert.equal(fs.existsSync(file), false);
  });

  it('saveLastRecord: the smaller record keeps the totals, is marked failed with the reason; the error keeps the experiment', () => {
    const dir = tmp('last');
    const file = path.join(dir, 'experiment.json');
    fs.symlinkSync('/dev/full', `${file}.tmp-${process.pid}`);
    const e = experiment('e1', [1, 2]);
    const err = saveLastRecord(file, e, null);
    assert.ok(err instanceof RecordNotSavedError);
    assert.equal(err.category, 'files');
    assert.equal(err.experiment, e);
    assert.equal(err.onDisk, 'smaller');
    assert.equal(err.stopped, false);
    assert.match(err.message, /^Could not write .*experiment\.json: the disk is full \(ENOSPC\)\. The record on disk is a smaller copy/);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof e;
    assert.equal(saved.status, 'failed');
    assert.deepEqual(saved.runs[1].totals, e.runs[1].totals);
    assert.deepEqual(saved.runs[1].timeline, []);
    assert.equal(e.runs[1].timeline.length > 0, true, 'the experiment in memory keeps its ticks');
    assert.equal(saveLastRecord(path.join(dir, 'other.json'), e, null), null, 'nothing to report when the write succeeds');
  });
});
