// A tune's notebook checked by tools no one here wrote: nbformat's validator, and `jupyter nbconvert --to html`
// renders it (the search chart as an image). Here rather than in the unit tier because it needs python3 with nbformat
// and nbconvert, which scripts/integration-setup.sh installs before this tier runs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildNotebook } from '../../src/engine/notebook/write';
import { tuneExperiment } from '../helpers/tuneExperiment';
import { tmp } from '../helpers/common';

describe("a tune's notebook, read by nbformat and nbconvert", () => {
  it('is valid nbformat and renders to HTML with its search chart', () => {
    const dir = tmp('spinlab-tune-nb-');
    const file = path.join(dir, 'tune.ipynb');
    fs.writeFileSync(file, JSON.stringify(buildNotebook([tuneExperiment()]), null, 1));
    const v = spawnSync(
      'python3',
      ['-c', 'import sys, nbformat\nnbformat.validate(nbformat.read(sys.argv[1], as_version=4))\nprint("valid")', file],
      { encoding: 'utf8' },
    );
    if (v.error) throw new Error(`python3 with nbformat is needed (pip install nbformat): ${v.error.message}`);
    assert.equal(v.status, 0, v.stderr);
    assert.match(v.stdout, /valid/);
    const r = spawnSync('jupyter', ['nbconvert', '--to', 'html', '--output-dir', dir, file], { encoding: 'utf8' });
    if (r.error) throw new Error(`jupyter nbconvert is needed (pip install nbconvert): ${r.error.message}`);
    assert.equal(r.status, 0, r.stderr);
    const html = fs.readFileSync(path.join(dir, 'tune.html'), 'utf8');
    assert.match(html, /<h2 id="Search">/);
    // nbconvert inlines each SVG chart as an <img> data URI: the search chart is the one with a mark per trial.
    const svgs = [...html.matchAll(/<img[^>]*src="data:image\/svg\+xml;base64,([^"]+)"/g)].map((m) =>
      Buffer.from(m[1], 'base64').toString(),
    );
    assert.ok(
      svgs.some((svg) => svg.includes('class="trial"')),
      `the search chart among the ${svgs.length} images`,
    );
  });
});
