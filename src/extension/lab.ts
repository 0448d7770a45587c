// The heavy half of the extension, one bundle chunk (dist/lab.js) that loadLab.ts loads on first use: the panel and
// its controller, and through them the engine, the SQL driver (mssql/tedious) and the notebook code. activate()
// must never import this module eagerly (test/unit/activation.test.ts checks it does not).
export { LabPanel } from './panel';
export { profileFromAzdata } from '../host/profiles';
