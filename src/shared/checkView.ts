// The `spinlab check` report as the panel and the Activity Bar tree show it (src/engine/check.ts makes the report,
// src/host/checkView.ts turns it into this): each feature, whether it can run here, and the GRANTs it lacks.

export interface CheckFeatureView {
  /** A FeatureId of src/engine/check.ts ('sample', 'affinity', ...). */
  id: string;
  name: string;
  canRun: boolean;
  /** Why not, in words (empty when it can run). */
  reasons: string[];
  /** The exact statements that would let it run; empty when nothing can be granted. */
  grants: string[];
}

export interface CheckView {
  /** False for a server Spinlock Lab does not support; `notes` says why. */
  supported: boolean;
  notes: string[];
  features: CheckFeatureView[];
  /** The check itself failed (the connection stands): what went wrong, and features is empty. */
  error: string | null;
}
