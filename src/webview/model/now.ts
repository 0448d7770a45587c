// The Now view in the webview: the host's last reading (shared/nowMessages.ts), checked on arrival. A reading the
// schema refuses is dropped and said in the view; the last good one stays, so the view never goes blank.
import { NOW_IDLE, nowViewSchema, type NowView } from '../../shared/nowMessages';

export class NowModel {
  view: NowView = NOW_IDLE;
  /** Why the last reading was dropped (shown in the view), or null. */
  dropped: string | null = null;

  /** @param changed draws the view again (its region only). */
  constructor(private readonly changed: () => void = () => undefined) {}

  /** Takes a `nowUpdate` payload (either way the view is drawn again: a dropped one is said). */
  update(payload: unknown): void {
    const p = payload as { now?: unknown } | null;
    const r = nowViewSchema.safeParse(p && typeof p === 'object' ? p.now : undefined);
    if (!r.success) {
      const issue = r.error.issues[0];
      this.dropped = `A reading was not understood (${issue ? `${issue.path.join('.') || 'the reading'}: ${issue.message}` : 'malformed'}); the last good one is shown.`;
      this.changed();
      return;
    }
    this.view = r.data;
    this.dropped = null;
    this.changed();
  }
}
