// Two bundles, one per runtime: the extension host (Node, with the engine and the driver) and the panel webview
// (browser, with chart.js and @vscode-elements). Type checking is tsc's job (npm run build / tsconfig.webview.json);
// ts-loader only transpiles here.
'use strict';
const path = require('node:path');
const webpack = require('webpack');

const common = (tsconfig) => ({
  mode: 'production',
  devtool: 'source-map',
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    rules: [{
      test: /\.ts$/,
      exclude: /node_modules/,
      use: [{ loader: 'ts-loader', options: { configFile: path.resolve(__dirname, tsconfig), transpileOnly: true, compilerOptions: { sourceMap: true } } }],
    }],
  },
  performance: { hints: false },
  infrastructureLogging: { level: 'warn' },
});

/** @type {import('webpack').Configuration} */
const extension = {
  ...common('tsconfig.json'),
  name: 'extension',
  target: 'node18',
  entry: { extension: './src/extension/extension.ts' },
  output: { path: path.resolve(__dirname, 'dist'), filename: '[name].js', libraryTarget: 'commonjs2' },
  // vscode and azdata are given by the host at run time; azdata only inside Azure Data Studio.
  externals: { vscode: 'commonjs vscode', azdata: 'commonjs azdata' },
  // Keep Node's own __dirname: the engine finds sql/ by walking up from the bundle (dist/ -> the extension root).
  node: { __dirname: false, __filename: false },
  // One file: the driver's lazy imports would otherwise become numbered chunks beside it.
  plugins: [new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })],
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
