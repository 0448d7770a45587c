// Four bundles, for three runtimes: the extension host (Node, with the engine and the driver; in two chunks), the client
// loop's worker thread (Node), the panel webview (browser, with chart.js and @vscode-elements) and the notebook
// renderer (browser, an ES module). Type checking is tsc's job (npm run build / tsconfig.webview.json); ts-loader only
// transpiles here.
'use strict';
const path = require('node:path');

const common = (tsconfig) => ({
  mode: 'production',
  devtool: 'source-map',
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    rules: [
      {
        test: /\.ts$/,
        exclude: /node_modules/,
        use: [
          {
            loader: 'ts-loader',
            options: { configFile: path.resolve(__dirname, tsconfig), transpileOnly: true, compilerOptions: { sourceMap: true } },
          },
        ],
      },
    ],
  },
  performance: { hints: false },
  infrastructureLogging: { level: 'warn' },
});

/**
 * The extension host's code in three chunks: dist/extension.js, what activation loads (commands, the
 * Activity Bar tree's shell, the status bar, the panel's serializer); dist/tree.js, what the tree lists (the restore
 * journals, the SQL extension's connections, with the message schemas), which src/extension/labView.ts loads on the
 * tree's first getChildren; and dist/lab.js, the panel with the engine, the driver and the notebook code, which
 * src/extension/loadLab.ts loads on first use. The two lazy chunks each carry the modules they share (zod, the
 * schemas): no shared chunk, so each loads as one file. ts-loader keeps ES modules here (tsc's CommonJS would turn
 * those dynamic import()s into plain requires and so into one chunk).
 * @type {import('webpack').Configuration}
 */
const extension = {
  ...common('tsconfig.json'),
  name: 'extension',
  target: 'node18',
  entry: { extension: './src/extension/extension.ts' },
  output: { path: path.resolve(__dirname, 'dist'), filename: '[name].js', chunkFilename: '[name].js', libraryTarget: 'commonjs2' },
  // vscode and azdata are given by the host at run time; azdata only inside Azure Data Studio.
  externals: { vscode: 'commonjs vscode', azdata: 'commonjs azdata' },
  // Keep Node's own __dirname: the engine finds sql/ by walking up from the bundle (dist/ -> the extension root).
  node: { __dirname: false, __filename: false },
  module: {
    rules: [
      {
        test: /\.ts$/,
        exclude: /node_modules/,
        use: [
          {
            loader: 'ts-loader',
            options: {
              configFile: path.resolve(__dirname, 'tsconfig.json'),
              transpileOnly: true,
              compilerOptions: { sourceMap: true, module: 'es2022', moduleResolution: 'bundler' },
            },
          },
        ],
      },
    ],
    // The driver's own lazy imports stay inside the chunk that holds the driver (lab.js) rather than becoming
    // numbered chunks; loadLab.ts's and labView.ts's imports ask for "lazy" by name, so they alone are chunks of their own.
    parser: { javascript: { dynamicImportMode: 'eager' } },
  },
  // No shared or vendor chunks: exactly extension.js, tree.js and lab.js.
  optimization: { splitChunks: false },
  ignoreWarnings: [
    // Optional or dynamic requires inside the driver's Azure identity stack; not used by the paths we call.
    { module: /node_modules[\\/](@azure|@azure-rest|@js-joda|keytar|open|jsonwebtoken)/ },
    { message: /Can't resolve '(bufferutil|utf-8-validate|keytar)'/ },
  ],
};

/** @type {import('webpack').Configuration} */
const webview = {
  ...common('tsconfig.webview.json'),
  name: 'webview',
  target: 'web',
  entry: { webview: './src/webview/main.ts' },
  output: { path: path.resolve(__dirname, 'dist'), filename: '[name].js' },
  // No eval under the panel's CSP: stdlib's generator probe (Function('...')) is replaced by its answer, "none".
  resolve: {
    ...common('tsconfig.webview.json').resolve,
    alias: { '@stdlib/assert-has-generator-support': path.resolve(__dirname, 'src/webview/shims/noGeneratorProbe.js') },
  },
};

/** @type {import('webpack').Configuration} The notebook renderer: an ES module VS Code loads into notebook output. */
const renderer = {
  ...common('tsconfig.webview.json'),
  name: 'renderer',
  target: 'web',
  entry: { renderer: './src/renderer/seriesRenderer.ts' },
  experiments: { outputModule: true },
  output: { path: path.resolve(__dirname, 'dist'), filename: '[name].js', library: { type: 'module' } },
};

/**
 * The client loop's worker thread (src/engine/workers/clientWorker.ts): a thread starts from a file, so it is a bundle of
 * its own beside extension.js (the engine finds it as dist/clientWorker.js; without it, runs use one event loop).
 */
const clientWorker = { ...extension, name: 'clientWorker', entry: { clientWorker: './src/engine/workers/clientWorker.ts' } };

module.exports = [extension, webview, renderer, clientWorker];
