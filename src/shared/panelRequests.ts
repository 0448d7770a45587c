// The questions the panel's webview asks the host (requests.ts), one spread per feature: each names its params
// schema, checked by the host, and its result schema, checked by the webview when the answer arrives.
import { HistoryRequests } from './historyMessages';
import { PresetRequests } from './presetMessages';
import { TuneRequests } from './tuneMessages';
import { WatchRequests } from './watchMessages';

export const PanelRequests = {
  ...PresetRequests,
  ...WatchRequests,
  ...HistoryRequests,
  ...TuneRequests,
} as const;

export type PanelRequestMap = typeof PanelRequests;
