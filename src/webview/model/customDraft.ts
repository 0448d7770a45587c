// The Custom workload form as the user edits it, kept per panel (a WeakMap on the view context, so app.ts needs no
// field for it): the fields as typed, the problems by field (shared/customForm.ts), and the last fill a
// "Load Test This Query" command sent (state.customFill.seq), applied once.
import { checkCustomForm, CUSTOM_FORM_DEFAULTS, type CustomForm } from '../../shared/customForm';
import type { PanelState } from '../../shared/protocol';
import { checkRepeat } from './validation';

export const CUSTOM_ID = 'custom';

export interface CustomDraft {
  form: CustomForm;
  /** The seq of the last fill applied (0: none). */
  seq: number;
  /** Where the filled T-SQL came from ('orders.sql', 'orders.sql (selection)'), for the form's note. */
  source: string;
  /** Repetitions of each thread count, as typed. */
  repeat: string;
}

const drafts = new WeakMap<object, CustomDraft>();

/** The owner's draft: the one kept in its saved view state after a reload (the panel hidden and shown), else a new one. */
export function draftOf(owner: { view?: { customDraft?: CustomDraft | null } }): CustomDraft {
  let d = drafts.get(owner);
  if (!d) {
    const kept = owner.view?.customDraft;
    d = {
      form: { ...CUSTOM_FORM_DEFAULTS, ...(kept?.form ?? {}) },
      seq: kept?.seq ?? 0,
      source: kept?.source ?? '',
      repeat: kept?.repeat ?? '1',
    };
    drafts.set(owner, d);
  }
  return d;
}

/** An edit of the draft: kept in the saved view state (only this form's fields: never a password), then redrawn. */
export function keepDraft(owner: { view?: { customDraft?: CustomDraft | null }; setView(p: { customDraft: CustomDraft }): void }): void {
  const d = draftOf(owner);
  owner.setView({ customDraft: { ...d, form: { ...d.form } } });
}

/** Applies a newer fill from the host: its T-SQL replaces the text (and clears a file), the rest is kept. */
export function applyFill(d: CustomDraft, state: PanelState | null, defaultDatabase: string): boolean {
  const fill = state?.customFill;
  if (!fill || fill.seq <= d.seq) return false;
  d.seq = fill.seq;
  d.source = fill.source;
  d.form = { ...d.form, sql: fill.sql, sqlFile: '' };
  if (!d.form.database.trim()) d.form.database = defaultDatabase;
  return true;
}

export interface CustomCheck {
  /** By field of the form, and 'repeat'. */
  errors: Record<string, string>;
  /** Repetitions of each thread count (1 while the field is wrong). */
  repeat: number;
  valid: boolean;
}

export function checkDraft(d: CustomDraft): CustomCheck {
  const errors = checkCustomForm(d.form);
  const repeat = checkRepeat(d.repeat);
  if (repeat.error) errors.repeat = repeat.error;
  return { errors, repeat: repeat.value, valid: Object.keys(errors).length === 0 };
}
