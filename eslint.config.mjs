// ESLint for Spinlock Lab: the recommended rules of ESLint and typescript-eslint, and the house's one-way layers
// (docs/panel.md, shared/reference style.md): extension -> host -> engine -> db/shared; cli -> engine -> db/shared;
// webview and renderer -> shared only; only src/db imports the driver (mssql, tedious); only src/extension imports
// vscode/azdata; no Node built-ins in the browser layers; no browser code or DOM globals on the Node side. Inside
// tools/sim: session -> model -> grammar/catalog, each serving the wire's contract (tds/contract.ts), and the wire
// (tds/) importing none of them. The tables are layers.json, which test/unit/layers.test.ts checks a second way.
// `npm run lint` also runs Prettier's check, madge for import circles and knip for unused files, exports and packages.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const TABLES = JSON.parse(readFileSync(new URL('./layers.json', import.meta.url), 'utf8'));
/** What each folder of src/ may import from the other folders of src/ (itself is always allowed). */
const MAY_IMPORT = TABLES.src;
/** The same for the simulator's folders (tools/sim/<folder>); 'tds/contract' allows that one file of tools/sim/tds. */
const SIM_MAY_IMPORT = TABLES['tools/sim'];
const LAYERS = Object.keys(MAY_IMPORT);
const BROWSER_LAYERS = ['webview', 'renderer'];
const NODE_LAYERS = LAYERS.filter((l) => !BROWSER_LAYERS.includes(l));

/**
 * The folders a file of `layer` must not import, as no-restricted-imports patterns on the import's path (gitignore
 * style, so `**\/engine/**` is any path with a segment named engine; no src/ file or folder shares a layer's name
 * except src/extension/extension.ts, inside its own layer). Core ESLint, no resolver: eslint-plugin-import-x's
 * resolver needs per-platform native packages that the registry here does not all serve, which breaks `npm ci`.
 */
function layerPatterns(layer) {
  const banned = LAYERS.filter((l) => l !== layer && !MAY_IMPORT[layer].includes(l));
  const patterns = [];
  if (banned.length) {
    patterns.push({
      group: banned.flatMap((l) => [`**/${l}`, `**/${l}/**`]),
      message: `src/${layer} may import only ${['itself', ...MAY_IMPORT[layer].map((l) => `src/${l}`)].join(', ')} (one-way layers).`,
    });
  }
  // Nothing shipped imports the tests, the benchmarks or the scripts; only the CLI starts the simulator (spinlab sim, demo).
  patterns.push({ group: ['**/test/**', '**/bench/**', '**/scripts/**'], message: 'src/ must not import tests, benchmarks or scripts.' });
  patterns.push(
    layer === 'cli'
      ? { group: ['**/tools/**', '!**/tools/sim/**'], message: 'src/cli may load only the simulator from tools/.' }
      : { group: ['**/tools/**'], message: 'Only src/cli may load the simulator (tools/sim).' },
  );
  return patterns;
}

/** no-restricted-imports for a simulator folder: its sibling folders that SIM_MAY_IMPORT does not list. */
function simRules(folder) {
  const allowed = SIM_MAY_IMPORT[folder];
  // A regex, not a gitignore group: a group cannot re-include one file (tds/contract) of a folder it excludes.
  const banned = Object.keys(SIM_MAY_IMPORT)
    .filter((f) => f !== folder && !allowed.includes(f))
    .map((f) => {
      const files = allowed.filter((a) => a.startsWith(`${f}/`)).map((a) => a.slice(f.length + 1));
      return files.length ? `${f}(/(?!(${files.join('|')})$).*)?` : `${f}(/.*)?`;
    });
  const may = ['itself', ...allowed.map((a) => `tools/sim/${a}`)].join(', ');
  const message = `tools/sim/${folder} may import only ${may} (one-way layers: session -> model -> grammar/catalog -> the contract).`;
  const patterns = banned.length ? [{ regex: `(^|/)(${banned.join('|')})$`, message }] : [];
  return { 'no-restricted-imports': ['error', { patterns: [...patterns, NO_PRODUCT] }] };
}

/** The simulator learns nothing from the product it stands in front of: no import of src/ anywhere under tools/sim. */
const NO_PRODUCT = {
  regex: '^(\\.\\./)+src(/.*)?$',
  message: 'tools/sim may not import the product (src/): the simulator answers from what arrives on the wire alone.',
};

const DRIVER = ['mssql', 'tedious'];
const HOST_API = ['vscode', 'azdata'];
const BROWSER_PACKAGES = ['lit', 'chart.js', 'chartjs-plugin-zoom', '@vscode-elements/elements', '@vscode/codicons'];
const NODE_BUILTINS = builtinModules.filter((m) => !m.startsWith('_'));
const DOM_GLOBALS = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'customElements',
  'requestAnimationFrame',
  'HTMLElement',
  'MessageEvent',
];

/** no-restricted-imports for the packages a layer must not import (one rule entry per layer: flat config replaces, never merges, a rule's options). */
function packageRules(layer) {
  const paths = [];
  const patterns = layerPatterns(layer);
  const ban = (names, message) => {
    for (const name of names) paths.push({ name, message });
    patterns.push({ group: names.map((n) => `${n}/*`), message });
  };
  if (layer !== 'db') ban(DRIVER, 'Only src/db imports the SQL driver (mssql, tedious).');
  if (layer !== 'extension')
    ban(HOST_API, 'Only src/extension imports the editor API (vscode, azdata); the rest runs in plain Node or a browser.');
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
  ...LAYERS.map((layer) => ({ files: [`src/${layer}/**/*.ts`], rules: packageRules(layer) })),
  ...Object.keys(SIM_MAY_IMPORT).map((folder) => ({ files: [`tools/sim/${folder}/**/*.ts`], rules: simRules(folder) })),
  { files: ['tools/sim/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [NO_PRODUCT] }] } },
  // The panel's views and model get what they need as a ViewContext (views/context.ts): app.ts imports the views,
  // never the reverse. (Its own entry: the webview's layer patterns stay in force beside it.)
  {
    files: ['src/webview/views/**/*.ts', 'src/webview/model/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...packageRules('webview')['no-restricted-imports'][1],
          patterns: [
            ...packageRules('webview')['no-restricted-imports'][1].patterns,
            { group: ['**/app', '**/main'], message: 'Views and model depend on views/context.ts, never on the app.' },
          ],
        },
      ],
    },
  },
  {
    files: NODE_LAYERS.map((l) => `src/${l}/**/*.ts`),
    rules: {
      'no-restricted-globals': [
        'error',
        ...DOM_GLOBALS.map((name) => ({ name, message: 'No DOM on the Node side (engine, host, db, cli, shared).' })),
      ],
    },
  },
  {
    files: [...BROWSER_LAYERS.map((l) => `src/${l}/**/*.ts`), 'test/browser/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Type-aware: a promise nobody awaits loses its rejection (an unhandled rejection kills the CLI and leaves a knob
    // changed), and a promise where a callback's boolean or void is expected runs unobserved. Each tsconfig checks its
    // own runtime's files (tsconfig.webview.json: the browser layers), so the rules see the types the compiler sees.
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json', './tsconfig.webview.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Plain CommonJS scripts (bin, scripts, webpack config, browser-test stubs).
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
