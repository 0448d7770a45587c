// Public entry point of the TDS wire layer.
export { TdsServer } from './server';
export type { TdsServerOptions, SessionInfo, ProductVersion } from './server';
export { TdsFaults } from './faults';
export * from './contract';
