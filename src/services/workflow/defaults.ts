import type { WorkflowDefinition } from './types';

/**
 * The receivables workflow organizations created before issue 10 were given (draft, issue, discard).
 * Kept to recognise it: the data migration receivables-workflow replaces a stored copy equal to it.
 */
export const PREVIOUS_RECEIVABLE_DOCUMENT_WORKFLOW: WorkflowDefinition = {
  record_type: 'receivable_document',
  initial_state: 'draft',
  states: [
    { key: 'draft', semantic: 'draft', labels: { en: 'Draft', ms: 'Draf', zh: '草稿' } },
    { key: 'issued', semantic: 'accrual', labels: { en: 'Issued', ms: 'Dikeluarkan', zh: '已开具' } },
    { key: 'discarded', semantic: 'cancelled', labels: { en: 'Discarded', ms: 'Dibuang', zh: '已作废' } },
  ],
  transitions: [
    {
      action_key: 'issue',
      from: 'draft',
      to: 'issued',
      gate: 'target',
      authority: 'receivables.invoice.issue',
      segregated: true,
      labels: { en: 'Issue', ms: 'Keluarkan', zh: '开具' },
    },
    { action_key: 'discard', from: 'draft', to: 'discarded', gate: 'reporter', labels: { en: 'Discard', ms: 'Buang', zh: '作废' } },
  ],
};

/**
 * The receivables workflow of issue 10 (dispute, resolve, cancel), before e-invoicing. Kept to
 * recognise it: the data migration receivables-einvoicing-workflow replaces a stored copy equal to it.
 */
export const RECEIVABLE_WORKFLOW_BEFORE_EINVOICING: WorkflowDefinition = {
  record_type: 'receivable_document',
  initial_state: 'draft',
  states: [
    { key: 'draft', semantic: 'draft', labels: { en: 'Draft', ms: 'Draf', zh: '草稿' } },
    { key: 'issued', semantic: 'accrual', labels: { en: 'Issued', ms: 'Dikeluarkan', zh: '已开具' } },
    { key: 'discarded', semantic: 'cancelled', labels: { en: 'Discarded', ms: 'Dibuang', zh: '已作废' } },
    { key: 'disputed', semantic: 'dispute', labels: { en: 'Disputed', ms: 'Dipertikaikan', zh: '有争议' } },
    { key: 'cancelled', semantic: 'cancelled', labels: { en: 'Cancelled', ms: 'Dibatalkan', zh: '已取消' } },
  ],
  transitions: [
    {
      action_key: 'issue',
      from: 'draft',
      to: 'issued',
      gate: 'target',
      authority: 'receivables.invoice.issue',
      segregated: true,
      // A credit note is issued only within what its invoice has left to credit.
      conditions: ['credit_within_invoice'],
      labels: { en: 'Issue', ms: 'Keluarkan', zh: '开具' },
    },
    { action_key: 'discard', from: 'draft', to: 'discarded', gate: 'reporter', labels: { en: 'Discard', ms: 'Buang', zh: '作废' } },
    {
      action_key: 'dispute',
      from: 'issued',
      to: 'disputed',
      gate: 'source',
      authority: 'receivables.invoice.dispute',
      requires_reason: true,
      labels: { en: 'Record a dispute', ms: 'Rekod pertikaian', zh: '记录争议' },
    },
    {
      action_key: 'resolve',
      from: 'disputed',
      to: 'issued',
      gate: 'source',
      authority: 'receivables.invoice.dispute',
      not_raiser: true,
      labels: { en: 'Resolve the dispute', ms: 'Selesaikan pertikaian', zh: '解决争议' },
    },
    {
      action_key: 'cancel',
      from: 'issued',
      to: 'cancelled',
      gate: 'source',
      authority: 'receivables.invoice.cancel',
      requires_reason: true,
      conditions: ['nothing_allocated'],
      labels: { en: 'Cancel', ms: 'Batalkan', zh: '取消' },
    },
  ],
};

/**
 * The workflows every organization starts with (docs/design.md §11, docs/myinvois.md points 4–6). With
 * e-invoicing on, `issue` passes through `submitted` until LHDN validates the document (the issuing
 * step redirects it), and `cancel` of a validated e-invoice through `cancel_requested` until LHDN
 * confirms. The edges marked `system` are taken by the MyInvois jobs on LHDN's answer, never by a
 * person: they are not listed in available_transitions and the transition procedure refuses them.
 */
const RECEIVABLE_STATES = RECEIVABLE_WORKFLOW_BEFORE_EINVOICING.states;
const CANCEL_EDGE = RECEIVABLE_WORKFLOW_BEFORE_EINVOICING.transitions.find((t) => t.action_key === 'cancel')!;
export const DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW: WorkflowDefinition = {
  record_type: 'receivable_document',
  initial_state: 'draft',
  states: [
    ...RECEIVABLE_STATES,
    { key: 'submitted', semantic: 'pending', labels: { en: 'Submitted to LHDN', ms: 'Dihantar kepada LHDN', zh: '已提交税局' } },
    { key: 'rejection_requested', semantic: 'dispute', labels: { en: 'Rejection requested', ms: 'Penolakan diminta', zh: '买方请求拒绝' } },
    { key: 'cancel_requested', semantic: 'pending', labels: { en: 'Cancellation requested', ms: 'Pembatalan diminta', zh: '已请求取消' } },
  ],
  transitions: [
    ...RECEIVABLE_WORKFLOW_BEFORE_EINVOICING.transitions,
    {
      action_key: 'keep',
      from: 'rejection_requested',
      to: 'issued',
      gate: 'source',
      authority: 'receivables.invoice.dispute',
      requires_reason: true,
      labels: { en: 'Keep the document', ms: 'Kekalkan dokumen', zh: '保留单据' },
    },
    { ...CANCEL_EDGE, from: 'rejection_requested' },
    { action_key: 'validate', from: 'submitted', to: 'issued', gate: 'advance', system: true, labels: { en: 'Validated by LHDN', ms: 'Disahkan oleh LHDN', zh: '税局已验证' } },
    { action_key: 'invalid', from: 'submitted', to: 'draft', gate: 'advance', system: true, labels: { en: 'Invalid at LHDN', ms: 'Tidak sah di LHDN', zh: '税局判定无效' } },
    {
      action_key: 'request_rejection',
      from: 'issued',
      to: 'rejection_requested',
      gate: 'advance',
      system: true,
      labels: { en: 'Buyer requested rejection', ms: 'Pembeli meminta penolakan', zh: '买方请求拒绝' },
    },
    { action_key: 'cancel_confirmed', from: 'cancel_requested', to: 'cancelled', gate: 'advance', system: true, labels: { en: 'Cancelled at LHDN', ms: 'Dibatalkan di LHDN', zh: '税局已取消' } },
    { action_key: 'cancel_refused', from: 'cancel_requested', to: 'issued', gate: 'advance', system: true, labels: { en: 'Cancellation refused by LHDN', ms: 'Pembatalan ditolak oleh LHDN', zh: '税局拒绝取消' } },
  ],
};

const L = {
  approve: { en: 'Approve', ms: 'Luluskan', zh: '批准' },
  return: { en: 'Return to the claimant', ms: 'Kembalikan kepada penuntut', zh: '退回申请人' },
  reject: { en: 'Reject', ms: 'Tolak', zh: '拒绝' },
  withdraw: { en: 'Withdraw', ms: 'Tarik balik', zh: '撤回' },
};

/**
 * The claim workflow of issue 11 (review, finance, disputes), before a bank difference could be
 * referred for approval. Kept to recognise it: the data migration claim-bank-difference replaces a
 * stored copy equal to it.
 */
export const CLAIM_WORKFLOW_BEFORE_BANK_DIFFERENCE: WorkflowDefinition = {
  record_type: 'expense_claim',
  initial_state: 'draft',
  states: [
    { key: 'draft', semantic: 'draft', labels: { en: 'Draft', ms: 'Draf', zh: '草稿' } },
    { key: 'review', semantic: 'pending', labels: { en: 'In review', ms: 'Dalam semakan', zh: '审核中' } },
    { key: 'finance', semantic: 'pending', labels: { en: 'With finance', ms: 'Di kewangan', zh: '财务审批中' } },
    { key: 'disputed', semantic: 'dispute', labels: { en: 'Disputed', ms: 'Dipertikaikan', zh: '有争议' } },
    { key: 'approved', semantic: 'committed', labels: { en: 'Approved', ms: 'Diluluskan', zh: '已批准' } },
    { key: 'paid', semantic: 'payout', labels: { en: 'Paid', ms: 'Dibayar', zh: '已支付' } },
    { key: 'rejected', semantic: 'rejected', labels: { en: 'Rejected', ms: 'Ditolak', zh: '已拒绝' } },
    { key: 'cancelled', semantic: 'cancelled', labels: { en: 'Cancelled', ms: 'Dibatalkan', zh: '已取消' } },
  ],
  transitions: [
    {
      action_key: 'submit',
      from: 'draft',
      to: 'review',
      gate: 'reporter',
      conditions: ['claim_has_lines', 'claim_lines_complete'],
      labels: { en: 'Submit', ms: 'Hantar', zh: '提交' },
    },
    { action_key: 'cancel', from: 'draft', to: 'cancelled', gate: 'reporter', labels: { en: 'Cancel', ms: 'Batal', zh: '取消' } },
    ...(['review', 'finance'] as const).flatMap((from) => [
      { action_key: 'approve', from, to: from === 'review' ? 'finance' : 'approved', gate: 'advance' as const, signs: true, labels: L.approve },
      { action_key: 'return', from, to: 'draft', gate: 'source' as const, signoff_authority: 'step' as const, segregated: true, requires_reason: true, labels: L.return },
      { action_key: 'reject', from, to: 'rejected', gate: 'source' as const, signoff_authority: 'step' as const, segregated: true, requires_reason: true, labels: L.reject },
      { action_key: 'withdraw', from, to: 'draft', gate: 'reporter' as const, labels: L.withdraw },
    ]),
    {
      action_key: 'dispute',
      from: 'finance',
      to: 'disputed',
      gate: 'source',
      signoff_authority: 'account',
      segregated: true,
      requires_reason: true,
      labels: { en: 'Dispute a share', ms: 'Pertikaikan bahagian', zh: '对分摊提出异议' },
    },
    {
      action_key: 'resolve',
      from: 'disputed',
      to: 'finance',
      gate: 'advance',
      signoff_authority: 'step',
      not_raiser: true,
      labels: { en: 'Resolve the dispute', ms: 'Selesaikan pertikaian', zh: '解决争议' },
    },
    { action_key: 'amend', from: 'disputed', to: 'draft', gate: 'reporter', labels: { en: 'Amend', ms: 'Pinda', zh: '修改' } },
    {
      action_key: 'pay',
      from: 'approved',
      to: 'paid',
      gate: 'source',
      authority: 'expenses.claim.pay',
      segregated: true,
      labels: { en: 'Pay', ms: 'Bayar', zh: '支付' },
    },
  ],
};

/**
 * The claim workflow (docs/design.md §11): the claimant's superior signs in `review`, each analytic
 * account's approver signs its share in `finance`; an account approver may dispute a share. A payer
 * whose bank figure for a bank-charged line exceeds the approved base amount by more than the payout
 * tolerance refers the difference (`refer_difference`, with the figures and a reason): the claim
 * waits in `difference` for each account's approvers to sign its part of the difference (bands
 * compared with that part), then is `approved` again at the bank figure; an approver who declines
 * it sends the claim back to `approved` at the amount approved before.
 */
export const DEFAULT_EXPENSE_CLAIM_WORKFLOW: WorkflowDefinition = {
  ...CLAIM_WORKFLOW_BEFORE_BANK_DIFFERENCE,
  states: [
    ...CLAIM_WORKFLOW_BEFORE_BANK_DIFFERENCE.states,
    { key: 'difference', semantic: 'pending', labels: { en: 'Bank difference in approval', ms: 'Perbezaan bank dalam kelulusan', zh: '银行差额审批中' } },
  ],
  transitions: [
    ...CLAIM_WORKFLOW_BEFORE_BANK_DIFFERENCE.transitions,
    {
      action_key: 'refer_difference',
      from: 'approved',
      to: 'difference',
      gate: 'source',
      authority: 'expenses.claim.pay',
      segregated: true,
      requires_reason: true,
      conditions: ['claim_has_bank_charged_lines'],
      labels: { en: 'Refer the bank difference for approval', ms: 'Rujuk perbezaan bank untuk kelulusan', zh: '提交银行差额审批' },
    },
    { action_key: 'approve', from: 'difference', to: 'approved', gate: 'advance', signs: true, labels: { en: 'Approve the difference', ms: 'Luluskan perbezaan', zh: '批准差额' } },
    {
      action_key: 'decline_difference',
      from: 'difference',
      to: 'approved',
      gate: 'source',
      signoff_authority: 'step',
      segregated: true,
      requires_reason: true,
      labels: { en: 'Decline the difference', ms: 'Tolak perbezaan', zh: '拒绝差额' },
    },
  ],
};

/**
 * The claim workflow organizations were given before issue 11 (draft, submitted, approved, paid).
 * Kept to recognise it: the data migration claim-workflow replaces a stored copy equal to it.
 */
export const PREVIOUS_EXPENSE_CLAIM_WORKFLOW: WorkflowDefinition = {
  record_type: 'expense_claim',
  initial_state: 'draft',
  states: [
    { key: 'draft', semantic: 'draft', labels: { en: 'Draft', ms: 'Draf', zh: '草稿' } },
    { key: 'submitted', semantic: 'pending', labels: { en: 'Submitted', ms: 'Dihantar', zh: '已提交' } },
    { key: 'approved', semantic: 'committed', labels: { en: 'Approved', ms: 'Diluluskan', zh: '已批准' } },
    { key: 'paid', semantic: 'payout', labels: { en: 'Paid', ms: 'Dibayar', zh: '已支付' } },
    { key: 'rejected', semantic: 'rejected', labels: { en: 'Rejected', ms: 'Ditolak', zh: '已拒绝' } },
    { key: 'cancelled', semantic: 'cancelled', labels: { en: 'Cancelled', ms: 'Dibatalkan', zh: '已取消' } },
  ],
  transitions: [
    { action_key: 'submit', from: 'draft', to: 'submitted', gate: 'reporter', labels: { en: 'Submit', ms: 'Hantar', zh: '提交' } },
    { action_key: 'cancel', from: 'draft', to: 'cancelled', gate: 'reporter', labels: { en: 'Cancel', ms: 'Batal', zh: '取消' } },
    { action_key: 'approve', from: 'submitted', to: 'approved', gate: 'advance', labels: { en: 'Approve', ms: 'Luluskan', zh: '批准' } },
    {
      action_key: 'reject',
      from: 'submitted',
      to: 'rejected',
      gate: 'source',
      authority: 'expenses.claim.approve',
      segregated: true,
      labels: { en: 'Reject', ms: 'Tolak', zh: '拒绝' },
    },
    { action_key: 'withdraw', from: 'submitted', to: 'draft', gate: 'reporter', labels: { en: 'Withdraw', ms: 'Tarik balik', zh: '撤回' } },
    {
      action_key: 'pay',
      from: 'approved',
      to: 'paid',
      gate: 'source',
      authority: 'expenses.claim.pay',
      segregated: true,
      labels: { en: 'Pay', ms: 'Bayar', zh: '支付' },
    },
  ],
};
