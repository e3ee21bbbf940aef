/** The approval engine's vocabulary (docs/design.md §17). */

/** Where a grant's authority comes from: the claimant's superiors, an account's approvers, a named holder. */
export const APPROVAL_GRANT_KINDS = ['superior', 'account_approver', 'default'] as const;
export type ApprovalGrantKind = (typeof APPROVAL_GRANT_KINDS)[number];

/** The claim workflow's sign-off steps: `review` (the superior, on the claim total), `finance` (each account's share). */
export const APPROVAL_STEPS = ['review', 'finance'] as const;
export type ApprovalStep = (typeof APPROVAL_STEPS)[number];

/** What a delegation lends: all of the delegator's authority, or one grant's, axis's or analytic account's. */
export const DELEGATION_SCOPES = ['all', 'grant', 'axis', 'analytic_account'] as const;
export type DelegationScope = (typeof DELEGATION_SCOPES)[number];

/** How a signer's authority was established (a sign-off's `signed.via`). */
export const SIGNATURE_VIAS = ['grant', 'delegation', 'escalation'] as const;
export type SignatureVia = (typeof SIGNATURE_VIAS)[number];

/** Longest a delegation may run, in days (inclusive of both ends). */
export const DELEGATION_MAX_DAYS = 90;
