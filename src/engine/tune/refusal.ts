// Why a tune refuses to start, as data as well as words: the command line prints the message and its fix (which name
// its flags); the panel words the same reason for its form (the checkbox or field beside Start), from `reason`.
import { SpinlabError } from '../errors';
import type { ErrorCategory } from '../../shared/spinlabError';
import type { MinimumBudget } from './plan';

export type TuneRefusalReason =
  | { kind: 'p99-needs-client-loop' }
  | { kind: 'p99-constraint-needs-client-loop' }
  | { kind: 'unknown-spinlock'; spinlock: string; near: string | null; listed: number }
  | { kind: 'busy-server'; sessions: number; batchRequestsPerSec: number }
  | { kind: 'budget-too-small'; budgetMs: number; minimum: MinimumBudget; sharedServer: boolean };

export class TuneRefusal extends SpinlabError {
  constructor(
    readonly reason: TuneRefusalReason,
    message: string,
    hint: string,
    category: ErrorCategory = 'user-input',
  ) {
    super(category, message, hint);
  }
}
