// The stack capture's public face for the host and the CLI.
export { captureStacks, captureStacksDetailed, describeOptions, eventSessionGrant, isSpinlockName, type CaptureOptions, type CaptureProgress, type CaptureDetail } from './capture';
export { foldTree, frameLabel, topBuckets, treeText } from './fold';
export { parseHistogram, parseFrames, parseFrame, HistogramFormatError, type Histogram, type HistogramSlot } from './parse';
export { toCallStackResolverXml } from './export';
export { FIRING_NOTES, SOURCES, lossNotes } from './notes';
export { sessionSizing, supportsMaxDuration, maxDurationSeconds, type BufferTopology, type SessionSizing } from './sizing';
export { SESSION_PREFIX, listOurSessions } from './sessions';
export { addStacksToExperiment } from './save';
