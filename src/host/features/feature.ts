// A panel feature (connect, run, watch, stacks, ...) is one object: it keeps its own state, registers the handlers of
// its own messages and the cleanup of what it starts, and is disposed with the panel, in reverse order of
// registration. The controller holds the list; adding a feature is one line there.
import type { PayloadOf, ToHostMap } from '../../shared/protocol';
import type { PanelContext } from '../panelContext';
import type { PanelRequestMap } from '../../shared/panelRequests';
import type { ParamsOf, ResultOf } from '../../shared/requests';

export type Payload<K extends keyof ToHostMap> = PayloadOf<ToHostMap[K]>;

/** What a feature registers with. */
export interface FeatureRegistry {
  /** What every feature shares: the state, the connection, the running experiment, the ports. */
  readonly panel: PanelContext;
  /**
   * Handles one message from the webview (already checked against its schema). A handler's failure becomes the
   * panel's lastError; a handler that starts something long returns at once and guards the rest itself.
   */
  on<K extends keyof ToHostMap & string>(type: K, handler: (payload: Payload<K>) => unknown): void;
  /**
   * Answers one question from the webview (checked against its params schema); the result, or the failure as the
   * panel shows it, goes back to the asker only (shared/requests.ts), never through the state.
   */
  ask<K extends keyof PanelRequestMap & string>(
    method: K,
    handler: (params: ParamsOf<PanelRequestMap[K]>) => ResultOf<PanelRequestMap[K]> | Promise<ResultOf<PanelRequestMap[K]>>,
  ): void;
}

export interface PanelFeature {
  /** Registers the feature's handlers, and its cleanup with `r.panel.add`; called once, in the controller's order. */
  register(r: FeatureRegistry): void;
}
