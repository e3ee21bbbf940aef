import type { MessageKey, Translate } from '../i18n';
import type { BadgeTone } from '../ui/Badge';

/**
 * The claim workflow's states as the console names them. The claim answer carries a state's key and
 * semantic, not its label: the default workflow's keys have words here; another key is shown as it is.
 */
const LABELS: Record<string, MessageKey> = {
  draft: 'claimState.draft',
  review: 'claimState.review',
  finance: 'claimState.finance',
  disputed: 'claimState.disputed',
  approved: 'claimState.approved',
  paid: 'claimState.paid',
  rejected: 'claimState.rejected',
  cancelled: 'claimState.cancelled',
  difference: 'claimState.difference',
};

/** The list filter: the default workflow's states, and the drafts sent back to the claimant. */
export const CLAIM_STATE_FILTERS = ['draft', 'returned', 'review', 'finance', 'disputed', 'approved', 'paid', 'rejected', 'cancelled'] as const;

export function claimStateLabel(state: string, t: Translate): string {
  const key = LABELS[state];
  return key ? t(key) : state;
}

export function claimStateTone(semantic: string): BadgeTone {
  switch (semantic) {
    case 'draft':
      return 'neutral';
    case 'pending':
    case 'dispute':
      return 'info';
    case 'committed':
    case 'payout':
      return 'success';
    case 'rejected':
      return 'danger';
    default:
      return 'neutral';
  }
}
