// The one-way layers of docs/panel.md, checked on the sources: extension -> host -> engine -> db/shared, and
// webview -> shared. The engine and host never import vscode; nothing but src/db imports the driver; nothing on the
// Node side imports the webview, and the webview imports nothing outside src/webview and src/shared.
// Within the webview, views and model depend on views/context.ts, never on app.ts. Inside tools/sim: session ->
// model -> grammar/catalog -> the wire's contract. The tables are layers.json, which eslint.config.mjs reads too.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const src = path.join(root, 'src');
const sim = path.join(root, 'tools', 'sim');
/** Per tree, what each folder may import from its sibling folders; 'folder/file' allows one file of a folder. */
const tables = JSON.parse(fs.readFileSync(path.join(root, 'layers.json'), 'utf8')) as Record<'src' | 'tools/sim', Record<string, string[]>>;

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(
    /(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm,
  )) {
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

const allowedLayers = Object.fromEntries(Object.entries(tables.src).map(([layer, may]) => [layer, [layer, ...may]]));
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
        const exempt =
          (layer === 'engine' && t.layer === 'outside:package.json') || (layer === 'cli' && t.layer?.startsWith('outside:tools/sim/'));
        if (t.layer && !allowed.includes(t.layer) && !exempt) {
          problems.push(`${where} imports ${spec} (${t.layer})`);
        }
        if (t.pkg && driverPackages.has(t.pkg) && layer !== 'db') problems.push(`${where} imports the driver ${t.pkg}`);
        if (t.pkg && hostOnlyPackages.has(t.pkg) && layer !== 'extension') problems.push(`${where} imports ${t.pkg}`);
        if (t.pkg && t.pkg.startsWith('node:') && (layer === 'webview' || layer === 'renderer' || layer === 'shared'))
          problems.push(`${where} imports ${t.pkg}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

it('every simulator file imports only from the folders below its own (session -> model -> grammar/catalog -> contract)', () => {
  const table = tables['tools/sim'];
  const problems: string[] = [];
  for (const [folder, may] of Object.entries(table)) {
    for (const file of files(path.join(sim, folder))) {
      for (const spec of imports(file).filter((s) => s.startsWith('.'))) {
        const rel = path
          .relative(sim, path.resolve(path.dirname(file), spec))
          .split(path.sep)
          .join('/');
        const [top] = rel.split('/');
        // Only the simulator's own folders are in the table (the model's reach into src/ is src's layers' business).
        if (top === folder || !(top in table)) continue;
        if (!may.includes(top) && !may.includes(rel)) problems.push(`${path.relative(root, file)} imports ${spec}`);
      }
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(files(path.join(sim, 'model')).length > 10 && files(path.join(sim, 'session')).length > 1);
});

it('the layer check sees the imports it is meant to police', () => {
  // Guards the regex above: if it stopped matching, the first test would pass vacuously.
  const client = path.join(src, 'db', 'client.ts');
  assert.ok(imports(client).includes('mssql'));
  assert.ok(files(path.join(src, 'engine')).length > 10);
});

it("the panel's views and model never import app.ts, which imports the views (views get a ViewContext)", () => {
  const app = path.join(src, 'webview', 'app.ts');
  const problems: string[] = [];
  for (const file of [...files(path.join(src, 'webview', 'views')), ...files(path.join(src, 'webview', 'model'))]) {
    for (const spec of imports(file)) {
      if (spec.startsWith('.') && path.resolve(path.dirname(file), spec) + '.ts' === app)
        problems.push(`${path.relative(root, file)} imports ${spec}`);
    }
  }
  assert.deepEqual(problems, []);
});
