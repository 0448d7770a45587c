// The connect feature's messages (src/host/features/connect): saved profiles, connecting and disconnecting, reading
// the server again, and the form's choices the host remembers across reloads.
import { z } from 'zod';
import { fromWebview } from './messages';
import { connectionProfileSchema } from './connectionProfile';
import { knobSettingsSchema, parameters, runSettingsSchema } from './messageSchemas';

/** Webview -> host. */
export const ConnectToHost = {
  /** Fill the form from a saved profile (null: a new, empty one). */
  profilePick: fromWebview('profilePick', z.object({ id: z.string().max(64).nullable() })),
  profileSave: fromWebview('profileSave', z.object({ profile: connectionProfileSchema })),
  profileDelete: fromWebview('profileDelete', z.object({ id: z.string().max(64) })),
  /** Connect with the profile as edited; a password typed now is used, and kept in SecretStorage if asked. */
  connectionOpen: fromWebview(
    'connectionOpen',
    z.object({
      profile: connectionProfileSchema,
      password: z.string().max(512).optional(),
      savePassword: z.boolean(),
    }),
  ),
  connectionClose: fromWebview('connectionClose', z.object({})),
  /**
   * Connect with one of Microsoft's SQL extension's saved connections (its id in PanelState.sqlExtension): the
   * credentials come from that extension at connect time and are neither shown nor kept.
   */
  sqlExtensionConnect: fromWebview('sqlExtensionConnect', z.object({ id: z.string().max(128) })),
  /** Read the server's identity, topology and settings again. */
  serverRefresh: fromWebview('serverRefresh', z.object({})),
  /** Remember the form's choices (host keeps them across reloads). */
  selectionSave: fromWebview(
    'selectionSave',
    z.object({
      scenarioId: z.string().max(64),
      parameters,
      run: runSettingsSchema,
      knobs: knobSettingsSchema,
    }),
  ),
} as const;
