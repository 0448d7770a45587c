// Where an error the user caused is shown: beside the control they used, not in the banner at the top of a long page.
// A connection error sits in the connection form by the field it names; a Custom workload run's error by its Run
// button. Each new error (not the same one posted again with the next state) is brought into view once, its control
// focused, so a keyboard or screen-reader user lands on it.
import type { PanelState, UiError } from '../shared/protocol';

/** The connection form's control for an error's `control`, as a CSS selector (the Connect button when none). */
function connControlSelector(control: UiError['control']): string {
  switch (control) {
    case 'server':
      return '#conn-server';
    case 'user':
      return '#conn-user';
    case 'password':
      return '#conn-password';
    case 'trustServerCertificate':
      return '#conn-trust';
    default:
      return '#btn-connect';
  }
}

/** Tells a new error from the one already shown (the host repeats it in every state until it changes). */
class NewErrors {
  private last: string | null = null;

  /** True once per error as it first arrives; null resets, so the same words again count as new. */
  arrived(err: UiError | null): boolean {
    const key = err ? JSON.stringify(err) : null;
    const isNew = key !== null && key !== this.last;
    this.last = key;
    return isNew;
  }
}

/** Where a new error of a state goes: the section to open, the element to bring into view, the control to focus. */
export class ErrorPlaces {
  private readonly conn = new NewErrors();
  private readonly custom = new NewErrors();

  next(s: PanelState, lastAction: string | null): { open: string | null; section: string; focus: string } | null {
    const conn = s.connection.error;
    const connPlace =
      this.conn.arrived(conn) && conn ? { open: 'connection', section: '#conn-error', focus: connControlSelector(conn.control) } : null;
    if (this.custom.arrived(lastAction === 'custom' ? s.lastError : null))
      return { open: null, section: '#custom-error', focus: '#custom-error' };
    return connPlace;
  }
}
