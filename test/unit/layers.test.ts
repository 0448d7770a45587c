// The one-way layers of docs/panel.md, checked on the sources: extension -> host -> engine -> db/shared, and
// webview -> shared. The engine and host never import vscode; nothing but src/db imports the driver; nothing on the
// Node side imports the webview, and the webview imports nothing outside src/webview and src/shared.
// Within the webview, views and model depend on views/context.ts, never on app.ts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const src = path.join(root, 'src');

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []);
}

function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm)) {
    found.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  }
  return found;
}

/** The layer a relative import lands in (src/<layer>/...), or the package name of a bare import. */
function target(file: string, spec: string): { layer?: string; pkg?: string } {
  if (!spec.startsWith('.')) return { pkg: spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0] };
  const abs = path.resolve(path.dirname(file), spec);
  const rel = path.relative(src, abs);
  if (rel.startsWith('..')) return { layer: `outside:${path.relative(root, abs)}` };
  return { layer: rel.split(path.sep)[0] };
}

const allowedLayers: Record<string, string[]> = {
  shared: ['shared'],
  db: ['db', 'shared'],
  engine: ['engine', 'db', 'shared'],
  cli: ['cli', 'engine', 'db', 'shared'],
  host: ['host', 'engine', 'db', 'shared'],
  extension: ['extension', 'host', 'engine', 'db', 'shared'],
  webview: ['webview', 'shared'],
  renderer: ['renderer', 'shared'],
};
const driverPackages = new Set(['mssql', 'tedious']);
const hostOnlyPackages = new Set(['vscode', 'azdata']);

it('every source file imports only from the layers below it', () => {
  const problems: string[] = [];
  for (const [layer, allowed] of Object.entries(allowedLayers)) {
    for (const file of files(path.join(src, layer))) {
      const where = path.relative(root, file);
      for (const spec of imports(file)) {
        const t = target(file, spec);
        // The engine reads its version from package.json; the CLI starts the simulator (spinlab sim, demo). Nothing
        // else reaches outside src/: the VSIX ships neither tools/ nor tests.
        const exempt = (layer === 'engine' && t.layer === 'outside:package.json') || (layer === 'cli' && t.layer?.startsWith('outside:tools/sim/'));
        if (t.layer && !allowed.includes(t.layer) && !exempt) {
          problems.push(`${where} imports ${spec} (${t.layer})`);
        }
        if (t.pkg && driverPackages.has(t.pkg) && layer !== 'db') problems.push(`${where} imports the driver ${t.pkg}`);
        if (t.pkg && hostOnlyPackages.has(t.pkg) && layer !== 'extension') problems.push(`${where} imports ${t.pkg}`);
        if (t.pkg && t.pkg.startsWith('node:') && (layer === 'webview' || layer === 'renderer' || layer === 'shared')) problems.push(`${where} imports ${t.pkg}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

it('the layer check sees the imports it is meant to police', () => {
  // Guards the regex above: if it stopped matching, the first test would pass vacuously.
  const client = path.join(src, 'db', 'client.ts');
  assert.ok(imports(client).includes('mssql'));
  assert.ok(files(path.join(src, 'engine')).length > 10);
});

it('the panel\'s views and model never import app.ts, which imports the views (views get a ViewContext)', () => {
  const app = path.join(src, 'webview', 'app.ts');
  const problems: string[] = [];
  for (const file of [...files(path.join(src, 'webview', 'views')), ...files(path.join(src, 'webview', 'model'))]) {
    for (const spec of imports(file)) {
      if (spec.startsWith('.') && path.resolve(path.dirname(file), spec) + '.ts' === app) problems.push(`${path.relative(root, file)} imports ${spec}`);
    }
  }
  assert.deepEqual(problems, []);
});
