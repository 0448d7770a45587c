// Where a state message enters the panel. A state the panel cannot accept (its shape, its tick columns, or a
// template that throws on it) never replaces what the panel shows: the panel keeps the last state it drew (with
// nothing drawn yet, it draws the new state without its ticks), says so in a notice, and asks the host for a fresh
// full snapshot (`stateResend`): the same way first, then with the ticks as plain objects, then without them. Three
// asks per load at most, never reset by a state that did arrive (ordinary states come between the answers, so a
// reset there could ask forever); only the user's "Try again" asks once more.
import type { PanelState } from '../shared/protocol';
import { checkStateTicks, STATE_TICKS, type RunTickColumns, type StatePayload, type StateTicks } from '../shared/stateSnapshot';
import { checkStateShape } from './model/stateShape';

export const MAX_STATE_ASKS = STATE_TICKS.length;

export interface StateNotice {
  /** refused: a fresh copy was asked for; gaveUp: no more asking; recovered: a state arrived after a refused one. */
  kind: 'refused' | 'gaveUp' | 'recovered';
  /** Why the (last) refused message was refused. */
  reason: string;
  /** How the last fresh copy's ticks were asked for. */
  asked: StateTicks | null;
}

export interface StateIntakeHooks {
  /** The state the panel shows now. */
  current(): PanelState | null;
  /** Draws a state and its ticks; throws when it cannot. */
  apply(state: PanelState, ticks: RunTickColumns[]): void;
  /** Draws again the state shown before one that could not be drawn. */
  restore(state: PanelState | null): void;
  ask(ticks: StateTicks, reason: string): void;
  /** The notice changed. */
  changed(): void;
}

export class StateIntake {
  notice: StateNotice | null = null;
  private asks = 0;
  private asked: StateTicks | null = null;

  constructor(private readonly hooks: StateIntakeHooks) {}

  /** Takes a state message's payload; false when it was refused. */
  receive(raw: unknown): boolean {
    const payload = (raw && typeof raw === 'object' ? raw : {}) as Partial<StatePayload>;
    let state: PanelState;
    let ticks: RunTickColumns[];
    try {
      state = checkStateShape(payload.state);
    } catch (err) {
      return this.refuse(err);
    }
    try {
      ticks = checkStateTicks(payload.ticks);
    } catch (err) {
      // Nothing on screen yet: the state without its ticks beats a blank panel (the fresh copy brings them).
      if (!this.hooks.current()) this.draw(state, []);
      return this.refuse(err);
    }
    if (!this.draw(state, ticks)) return false;
    if (this.notice && this.notice.kind !== 'recovered') {
      this.notice = { kind: 'recovered', reason: this.notice.reason, asked: this.asked };
      this.hooks.changed();
    }
    return true;
  }

  /** The user's "Try again" after the panel gave up: one more fresh copy. */
  retry(): void {
    if (this.notice?.kind !== 'gaveUp') return;
    this.asks = MAX_STATE_ASKS - 1;
    this.askAgain(this.notice.reason);
  }

  dismiss(): void {
    this.notice = null;
    this.hooks.changed();
  }

  /** Draws a state; a state the panel throws on is refused and the one before drawn again. */
  private draw(state: PanelState, ticks: RunTickColumns[]): boolean {
    const before = this.hooks.current();
    try {
      this.hooks.apply(state, ticks);
      return true;
    } catch (err) {
      try {
        this.hooks.restore(before);
      } catch {
        /* the state before drew once; if it no longer does, the notice still says what happened */
      }
      return this.refuse(err);
    }
  }

  private refuse(err: unknown): false {
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, 300);
    console.warn(`Spinlock Lab: dropped a state message: ${reason}`);
    this.askAgain(reason);
    return false;
  }

  private askAgain(reason: string): void {
    if (this.asks < MAX_STATE_ASKS) {
      this.asked = STATE_TICKS[this.asks++];
      this.notice = { kind: 'refused', reason, asked: this.asked };
      this.hooks.ask(this.asked, reason);
    } else {
      this.notice = { kind: 'gaveUp', reason, asked: this.asked };
    }
    this.hooks.changed();
  }
}
