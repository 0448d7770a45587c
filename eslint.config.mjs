// ESLint for Spinlock Lab: the recommended rules of ESLint and typescript-eslint, and the house's one-way layers
// (docs/panel.md, shared/reference style.md): extension -> host -> engine -> db/shared; cli -> engine -> db/shared;
// webview and renderer -> shared only; only src/db imports the driver (mssql, tedious); only src/extension imports
// vscode/azdata; no Node built-ins in the browser layers; no browser code or DOM globals on the Node side.
// test/unit/layers.test.ts checks the same layers a second way. `npm run lint` also runs madge for import circles.
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

/** What each folder of src/ may import from the other folders of src/ (itself is always allowed). */
const MAY_IMPORT = {
  shared: [],
  db: ['shared'],
  engine: ['db', 'shared'],
  host: ['engine', 'db', 'shared'],
  extension: ['host', 'engine', 'db', 'shared'],
  cli: ['engine', 'db', 'shared'],
  webview: ['shared'],
  renderer: ['shared'],
};
const LAYERS = Object.keys(MAY_IMPORT);
const BROWSER_LAYERS = ['webview', 'renderer'];
const NODE_LAYERS = LAYERS.filter((l) => !BROWSER_LAYERS.includes(l));

/** import-x/no-restricted-paths zones: for each layer, the folders above or beside it, and the dev-only trees. */
const zones = [
  ...LAYERS.map((layer) => ({
    target: `./src/${layer}`,
    from: LAYERS.filter((l) => l !== layer && !MAY_IMPORT[layer].includes(l)).map((l) => `./src/${l}`),
    message: `src/${layer} may import only ${['itself', ...MAY_IMPORT[layer].map((l) => `src/${l}`)].join(', ')} (one-way layers).`,
  })),
  // Nothing shipped imports the tests, the benchmarks or the scripts; only the CLI starts the simulator (spinlab sim, demo).
  { target: './src', from: ['./test', './bench', './scripts'], message: 'src/ must not import tests, benchmarks or scripts.' },
  { target: LAYERS.filter((l) => l !== 'cli').map((l) => `./src/${l}`), from: './tools', message: 'Only src/cli may load the simulator (tools/sim).' },
  { target: './src/cli', from: './tools', except: ['./sim'], message: 'src/cli may load only the simulator from tools/.' },
  // The panel's views and model get what they need as a ViewContext (views/context.ts): app.ts imports the views, never the reverse.
  { target: ['./src/webview/views', './src/webview/model'], from: ['./src/webview/app.ts', './src/webview/main.ts'], message: 'Views and model depend on views/context.ts, never on the app.' },
];

const DRIVER = ['mssql', 'tedious'];
const HOST_API = ['vscode', 'azdata'];
const BROWSER_PACKAGES = ['lit', 'chart.js', 'chartjs-plugin-zoom', '@vscode-elements/elements', '@vscode/codicons'];
const NODE_BUILTINS = builtinModules.filter((m) => !m.startsWith('_'));
const DOM_GLOBALS = ['window', 'document', 'navigator', 'localStorage', 'customElements', 'requestAnimationFrame', 'HTMLElement', 'MessageEvent'];

/** no-restricted-imports for the packages a layer must not import (one rule entry per layer: flat config replaces, never merges, a rule's options). */
function packageRules(layer) {
  const paths = [];
  const patterns = [];
  const ban = (names, message) => {
    for (const name of names) paths.push({ name, message });
    patterns.push({ group: names.map((n) => `${n}/*`), message });
  };
  if (layer !== 'db') ban(DRIVER, 'Only src/db imports the SQL driver (mssql, tedious).');
  if (layer !== 'extension') ban(HOST_API, 'Only src/extension imports the editor API (vscode, azdata); the rest runs in plain Node or a browser.');
  if (BROWSER_LAYERS.includes(layer) || layer === 'shared') {
    const message = `src/${layer} runs in a browser too: no Node built-ins.`;
    for (const name of NODE_BUILTINS) paths.push({ name, message });
    patterns.push({ group: ['node:*'], message });
  } else {
    ban(BROWSER_PACKAGES, 'Browser packages belong in src/webview and src/renderer.');
  }
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
}

export default defineConfig(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-artifacts/**', 'spinlab-results/**', '.cache/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_`-prefixed names are deliberately unused (a parameter an interface requires, a value skipped when destructuring).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Loaded at run time on purpose: azdata exists only inside Azure Data Studio; the simulator is a dev tool the
      // extension's bundle must not pull in, and the demo reports its absence instead of failing to load.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^azdata$', '/tools/sim/simulator$'] }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones }] },
  },
  ...LAYERS.map((layer) => ({ files: [`src/${layer}/**/*.ts`], rules: packageRules(layer) })),
  {
    files: NODE_LAYERS.map((l) => `src/${l}/**/*.ts`),
    rules: { 'no-restricted-globals': ['error', ...DOM_GLOBALS.map((name) => ({ name, message: 'No DOM on the Node side (engine, host, db, cli, shared).' }))] },
  },
  {
    files: [...BROWSER_LAYERS.map((l) => `src/${l}/**/*.ts`), 'test/browser/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Plain CommonJS scripts (bin, scripts, webpack config, browser-test stubs).
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
