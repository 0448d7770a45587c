// Plays VS Code's part for the notebook renderer (dist/renderer.js): activates it and hands it output items, the
// way a notebook's output area does, for each payload in /payloads.json and one broken payload. Results on window.
import { activate } from '/dist/renderer.js';

const payloads = await (await fetch('/payloads.json')).json();
const renderer = activate({});
const item = (id, value) => ({
  id,
  mime: 'application/vnd.spinlab.series+json',
  metadata: {},
  json: () => value,
  text: () => JSON.stringify(value),
  data: () => new TextEncoder().encode(JSON.stringify(value)),
  blob: () => new Blob([JSON.stringify(value)]),
});
const outputs = document.getElementById('outputs');
payloads.forEach((p, i) => {
  const el = document.createElement('div');
  el.className = 'output';
  outputs.append(el);
  renderer.renderOutputItem(item(`out-${i}`, p), el);
});
const bad = document.createElement('div');
bad.id = 'bad';
outputs.append(bad);
renderer.renderOutputItem(
  item('bad', { title: 't', xLabel: 'x', yLabel: 'y', kind: 'time', series: [{ name: 'a', points: [[0, 'NaN']] }] }),
  bad,
);
// Re-rendering the same output replaces its chart instead of stacking a second one.
renderer.renderOutputItem(item('out-0', payloads[0]), outputs.querySelector('.output'));
const canvases = [...document.querySelectorAll('canvas')];
window.__rendered = { canvases: canvases.length, drawn: canvases.filter((c) => c.width > 0 && c.height > 0).length, bad: bad.textContent };
// VS Code disposes an output item when its cell is cleared: its chart goes, the others stay.
renderer.disposeOutputItem('out-1');
window.__disposed = true;
