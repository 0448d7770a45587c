// Public entry point of the TDS wire layer.
export { TdsServer } from './server';
export * from './contract';
