// The stack capture's public face for the host and the CLI.
export {
  captureStacks,
  captureStacksDetailed,
  eventSessionGrant,
  isSpinlockName,
  type CaptureOptions,
  type CaptureProgress,
} from './capture';
export { frameLabel, treeText } from './fold';
export { toCallStackResolverXml } from './export';
export { addStacksToExperiment } from './save';
