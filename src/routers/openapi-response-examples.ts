import { exampleUuid } from './openapi-examples';

/**
 * Whole answers, one per shape a record takes, as named `examples` on the response media types: a draft
 * invoice (no number, no `issued_at`), an issued invoice (its number, `issued_at`, allocations, a validated
 * e-invoice), a credit note, the e-invoice in each status, and a claim in its states. Each is built from the
 * schema's own field examples (so it follows the schema as it changes) with the fields that tell the shapes
 * apart written here, as the demo data set answers them. tests/http/openapi-lint.test.ts (Redocly's
 * no-invalid-media-type-examples) checks every one against its schema.
 */

type Json = Record<string, any>;

const types = (s: Json): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** A value of every property of `s` (not only the required ones) from the field examples; a nullable value takes its non-null branch. */
function fullExample(s: Json | undefined, doc: Json, depth = 0): unknown {
  if (!s || depth > 12) return undefined;
  if (s.$ref) return fullExample(doc.components.schemas[String(s.$ref).split('/').pop()!], doc, depth + 1);
  const leaf = s.examples?.[0] ?? s.example ?? s.const ?? s.enum?.[0];
  if (leaf !== undefined) return leaf;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branch = (s[key] ?? []).find((b: Json) => b.$ref || !types(b).every((t) => t === 'null'));
    if (branch) return fullExample(branch, doc, depth + 1);
  }
  const t = types(s);
  if (t.includes('array')) {
    const item = fullExample(s.items, doc, depth + 1);
    return item === undefined ? [] : [item];
  }
  if (t.includes('object') || s.properties) {
    const out: Json = {};
    for (const [name, sub] of Object.entries<Json>(s.properties ?? {})) {
      const value = fullExample(sub, doc, depth + 1);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }
  return undefined;
}

const id = exampleUuid;
const ACCOUNTANT = id('member:accountant');
const CLERK = id('member:clerk');
const CLAIMANT = id('member:claimant');
const APPROVER = id('member:approver');
const FINANCE = id('member:finance');
const labels = (en: string, ms: string, zh: string) => ({ en, ms, zh });
const transition = (action_key: string, to: string, gate: string, allowed: boolean, l: Json, requires_reason: boolean, extra: Json = {}) => ({ action_key, to, gate, allowed, labels: l, requires_reason, ...extra });

/** The fields that tell the receivables document shapes apart; the rest comes from the schema. */
function receivablesShapes(base: Json) {
  const draft = {
    ...base,
    id: id('receivables_document:draft'),
    kind: 'sales_invoice',
    state: 'draft',
    semantic: 'draft',
    revision: 1,
    reference: null,
    issued_at: null,
    updated_at: '2026-01-15T09:58:40.000Z',
    reason: null,
    original_invoice_id: null,
    legacy_reference: null,
    project: null,
    prepared_by: CLERK,
    outstanding: base.gross_amount,
    outstanding_base: base.gross_base,
    // A draft's buyer and seller are read live from the customer and the organization; they are frozen on issue.
    buyer: null,
    seller: null,
    allocations: [],
    attachment_ids: [],
    available_transitions: [
      transition('issue', 'issued', 'target', true, labels('Issue', 'Keluarkan', '开具'), false),
      transition('discard', 'discarded', 'reporter', true, labels('Discard', 'Buang', '作废'), false),
    ],
    timeline: [],
  };
  const issuedId = id('receivables_document:issued');
  const issued = {
    ...draft,
    id: issuedId,
    state: 'issued',
    semantic: 'accrual',
    revision: 3,
    reference: 'INV-2026-00001',
    issued_at: '2026-01-15T10:02:11.000Z',
    updated_at: '2026-02-10T08:15:00.000Z',
    buyer: base.buyer,
    seller: base.seller,
    outstanding: '560.00',
    outstanding_base: '560.00',
    allocations: [
      {
        ...(base.allocations?.[0] ?? {}),
        id: id('allocation:receipt'),
        invoice_id: issuedId,
        created_by: ACCOUNTANT,
        amount: '500.00',
        base_amount: '500.00',
        currency: 'MYR',
        effective_on: '2026-02-10',
        created_at: '2026-02-10T08:15:00.000Z',
        source_kind: 'receipt',
        receipt_id: id('receipt'),
        credit_note_id: null,
        reverses_id: null,
        reversed_by_id: null,
      },
    ],
    available_transitions: [
      transition('dispute', 'disputed', 'source', true, labels('Record a dispute', 'Rekod pertikaian', '记录争议'), true),
      // Within the 72 hours after LHDN validated it (MyInvois); after them `allowed` is false: issue a credit note.
      transition('cancel', 'cancel_requested', 'source', true, labels('Cancel', 'Batalkan', '取消'), true),
    ],
    timeline: [
      { action_key: 'issue', actor_member_id: ACCOUNTANT, decided_at: '2026-01-15T10:02:11.000Z', from: 'draft', to: 'submitted', reason: '' },
      { action_key: 'validate', actor_member_id: ACCOUNTANT, decided_at: '2026-01-15T10:02:41.000Z', from: 'submitted', to: 'issued', reason: 'Validated by LHDN MyInvois: F9D425P6DS7D8IU6W2J1B3Z4K8' },
      { action_key: 'allocate', actor_member_id: ACCOUNTANT, decided_at: '2026-02-10T08:15:00.000Z', from: 'issued', to: 'issued', reason: '500.00 MYR allocated from a receipt' },
    ],
  };
  const creditNote = {
    ...issued,
    id: id('receivables_document:credit_note'),
    kind: 'customer_credit_note',
    reference: 'CN-2026-00001',
    revision: 2,
    issued_at: '2026-01-20T14:40:00.000Z',
    updated_at: '2026-01-20T14:45:00.000Z',
    reason: 'Goods returned by the customer',
    original_invoice_id: issuedId,
    net_total: '100.00',
    tax_total: '6.00',
    gross_amount: '106.00',
    gross_base: '106.00',
    outstanding: '0.00',
    outstanding_base: '0.00',
    lines: (base.lines ?? []).map((l: Json) => ({ ...l, description: 'Return of 1 unit', quantity: '1', unit_price: '100.00', net_amount: '100.00', net_base: '100.00', tax_amount: '6.00', tax_base: '6.00' })),
    allocations: [
      {
        ...issued.allocations[0],
        id: id('allocation:credit_note'),
        invoice_id: issuedId,
        amount: '106.00',
        base_amount: '106.00',
        effective_on: '2026-01-20',
        created_at: '2026-01-20T14:45:00.000Z',
        source_kind: 'credit_note',
        receipt_id: null,
        credit_note_id: id('receivables_document:credit_note'),
      },
    ],
    timeline: [
      { action_key: 'issue', actor_member_id: ACCOUNTANT, decided_at: '2026-01-20T14:40:00.000Z', from: 'draft', to: 'submitted', reason: '' },
      { action_key: 'validate', actor_member_id: ACCOUNTANT, decided_at: '2026-01-20T14:40:30.000Z', from: 'submitted', to: 'issued', reason: 'Validated by LHDN MyInvois: K2M8N4P6Q1R3S5T7U9V0W2X4Y6' },
      { action_key: 'apply_credit_note', actor_member_id: ACCOUNTANT, decided_at: '2026-01-20T14:45:00.000Z', from: 'issued', to: 'issued', reason: '106.00 MYR applied to INV-2026-00001' },
    ],
  };
  return { draft, issued, creditNote };
}

/** The e-invoice of a document in each status (GET /receivables/invoices/{id}/einvoice). */
function einvoiceShapes(base: Json) {
  const none = { uuid: null, long_id: null, validation_link: null, submitted_at: null, validated_at: null, cancelled_at: null, errors: [], preflight: [], document: null, last_error: null, attempts: 0, next_attempt_at: null };
  const submittedAt = '2026-01-15T10:02:20.000Z';
  const document = base.document ?? { Invoice: [] };
  return {
    not_submitted: {
      summary: 'A draft: not submitted, with what LHDN would refuse',
      value: {
        status: 'not_submitted',
        ...none,
        preflight: [
          { pointer: '/customer/phone', code: 'phone_not_e164', detail: "The customer's phone is missing; MyInvois needs it in E.164 form (e.g. +60123456789)" },
          { pointer: '/customer/address/state', code: 'address_state_missing', detail: "The customer's address has no state code (01-16 in Malaysia, 17 outside it)" },
        ],
      },
    },
    submitted: { summary: 'Issued and handed to LHDN, waiting for its verdict', value: { status: 'submitted', ...none, uuid: base.uuid, submitted_at: submittedAt, document } },
    valid: {
      summary: 'Validated by LHDN: UUID, long id and the validation link (the QR code of the PDF)',
      value: { status: 'valid', ...none, uuid: base.uuid, long_id: base.long_id, validation_link: base.validation_link, submitted_at: submittedAt, validated_at: '2026-01-15T10:02:41.000Z', document },
    },
    invalid: {
      summary: "Refused by LHDN: the document went back to draft; LHDN's errors say what to correct",
      value: {
        status: 'invalid',
        ...none,
        uuid: base.uuid,
        submitted_at: submittedAt,
        errors: [{ code: 'CF321', detail: "The buyer's TIN is not registered with LHDN", pointer: '/customer/tin' }],
        document,
      },
    },
    rejection_requested: {
      summary: 'The buyer asked LHDN to reject it within the 72 hours: cancel it or keep it',
      value: { status: 'rejection_requested', ...none, uuid: base.uuid, long_id: base.long_id, validation_link: base.validation_link, submitted_at: submittedAt, validated_at: '2026-01-15T10:02:41.000Z', document },
    },
    cancelled: {
      summary: 'Cancelled at LHDN within the 72 hours',
      value: { status: 'cancelled', ...none, uuid: base.uuid, long_id: base.long_id, validation_link: base.validation_link, submitted_at: submittedAt, validated_at: '2026-01-15T10:02:41.000Z', cancelled_at: '2026-01-16T09:00:00.000Z', document },
    },
  };
}

/** A claim (ClaimAnswer) in its states: the fields that tell them apart, the rest from the schema. */
function claimShapes(base: Json) {
  const claimBase = { ...base.claim, id: id('claim'), reference: 'EC-2026-0007', title: 'Client visit, Shah Alam', claimant_member_id: CLAIMANT, group_id: null, payout_channel_id: null, original_currency: null, original_total: null, multiple_currencies: false, total: '42.70', created_at: '2026-01-12T09:00:00.000Z' };
  delete claimBase.your_share;
  const line = (no: number, description: string, amount: string) => ({ ...base.lines[0], id: id(`claim_line:${no}`), line_no: no, type: 'receipt', withdrawn: false, description, currency: 'MYR', amount, base_amount: amount, fx_rate: '1', tax_amount: '0.00', einvoice_uuid: null, einvoice_validated_at: null, document_basis: 'relaxation_receipt', relaxation_reason: 'Handwritten receipt, no e-invoice', possible_duplicate: false, duplicate_claim_references: [] });
  const lines = [line(1, 'Parking, Shah Alam', '24.50'), line(2, 'Tolls, Kuala Lumpur to Shah Alam and back', '18.20')];
  const decision = (from: string, to: string, actor: string, via: string, decided_at: string, reason = '') => ({ actor_member_id: actor, authority_member_id: actor, decided_at, from, to, reason, via });
  const submit = decision('draft', 'review', CLAIMANT, 'reporter', '2026-01-12T09:30:00.000Z');
  // No `gap`: the natural approver was found (a gap is present only when someone was passed over).
  const signoff = (state: string, eligible: string[]) => {
    const { gap: _gap, ...rest } = base.signoffs[0] as Json;
    return { ...rest, amount: '42.70', currency: 'MYR', eligible, state };
  };
  const t = {
    submit: transition('submit', 'review', 'reporter', true, labels('Submit', 'Hantar', '提交'), false),
    cancel: transition('cancel', 'cancelled', 'reporter', true, labels('Cancel', 'Batalkan', '取消'), false),
    approve: transition('approve', 'finance', 'advance', true, labels('Approve', 'Luluskan', '批准'), false, { signs: [{ ...(base.available_transitions?.[0]?.signs?.[0] ?? {}), amount: '42.70' }] }),
    return: transition('return', 'draft', 'source', true, labels('Return to the claimant', 'Kembalikan kepada penuntut', '退回申请人'), true),
    reject: transition('reject', 'rejected', 'source', true, labels('Reject', 'Tolak', '拒绝'), true),
    pay: transition('pay', 'paid', 'source', true, labels('Pay', 'Bayar', '支付'), false),
    // Not allowed here: the example's lines are not bank-charged, so there is no bank figure to refer.
    refer_difference: transition(
      'refer_difference',
      'difference',
      'source',
      false,
      labels('Refer the bank difference for approval', 'Rujuk perbezaan bank untuk kelulusan', '提交银行差额审批'),
      true,
    ),
  };
  const answer = (claim: Json, rest: Json) => ({ claim: { ...claimBase, ...claim }, lines, decisions: [], settlements: [], signoffs: [], available_transitions: [], ...rest });
  return {
    draft: { summary: 'A draft: its claimant may submit or cancel it', value: answer({ state: 'draft', semantic: 'draft', revision: 3, submitted_at: null }, { available_transitions: [t.submit, t.cancel] }) },
    review: {
      summary: "Submitted: the superior's sign-off is due (as the approver reads it)",
      value: answer({ state: 'review', semantic: 'pending', revision: 4, submitted_at: '2026-01-12T09:30:00.000Z' }, { decisions: [submit], signoffs: [signoff('review', [APPROVER])], available_transitions: [t.approve, t.return, t.reject] }),
    },
    returned: {
      summary: 'Returned to the claimant with a reason, back in draft',
      value: answer({ state: 'draft', semantic: 'draft', revision: 5, submitted_at: '2026-01-12T09:30:00.000Z' }, {
        decisions: [submit, decision('review', 'draft', APPROVER, 'grant', '2026-01-12T11:00:00.000Z', 'Please add the toll charges of the same trip')],
        available_transitions: [t.submit, t.cancel],
      }),
    },
    approved: {
      summary: 'Approved: every sign-off signed, waiting to be paid',
      value: answer({ state: 'approved', semantic: 'committed', revision: 6, submitted_at: '2026-01-12T09:30:00.000Z' }, {
        decisions: [submit, decision('review', 'finance', APPROVER, 'grant', '2026-01-12T11:00:00.000Z'), decision('finance', 'approved', FINANCE, 'grant', '2026-01-13T10:00:00.000Z')],
        available_transitions: [t.pay, t.refer_difference],
      }),
    },
    paid: {
      summary: 'Paid: final, with the settlement (the channel masked)',
      value: answer({ state: 'paid', semantic: 'payout', revision: 7, submitted_at: '2026-01-12T09:30:00.000Z', payout_channel_id: id('payout_channel') }, {
        decisions: [submit, decision('review', 'finance', APPROVER, 'grant', '2026-01-12T11:00:00.000Z'), decision('finance', 'approved', FINANCE, 'grant', '2026-01-13T10:00:00.000Z'), decision('approved', 'paid', FINANCE, 'grant', '2026-01-14T16:00:00.000Z')],
        settlements: [{ ...base.settlements[0], id: id('settlement'), channel_id: id('payout_channel'), amount: '42.70', currency: 'MYR', settled_at: '2026-01-14T16:00:00.000Z', settled_by: FINANCE }],
      }),
    },
    rejected: {
      summary: 'Rejected with a reason: final',
      value: answer({ state: 'rejected', semantic: 'rejected', revision: 5, submitted_at: '2026-01-12T09:30:00.000Z' }, {
        decisions: [submit, decision('review', 'rejected', APPROVER, 'grant', '2026-01-12T11:00:00.000Z', 'Not a business expense')],
      }),
    },
  };
}

const pick = <T extends Record<string, unknown>>(all: T, names: (keyof T)[]) => Object.fromEntries(names.map((n) => [n, all[n]]));

/** Sets named examples on the JSON answers of the operations whose records take several shapes. */
export function addResponseExamples(doc: Json) {
  const schemas = doc.components?.schemas ?? {};
  // A document of another router (tests build some) has none of these records.
  if (!schemas.ReceivablesDocument || !schemas.EinvoiceStatus || !schemas.ClaimAnswer) return;
  const docs = receivablesShapes(fullExample(schemas.ReceivablesDocument, doc) as Json);
  const invoiceExamples = {
    draft: { summary: 'A draft: no number, no issued_at; buyer and seller not yet frozen', value: docs.draft },
    issued_invoice: { summary: 'An issued invoice: its number, issued_at, frozen buyer and seller, a receipt allocated, validated by LHDN MyInvois', value: docs.issued },
    credit_note: { summary: 'An issued credit note, applied to the invoice it corrects', value: docs.creditNote },
  };
  const listItem = (d: Json) => Object.fromEntries(Object.entries(d).filter(([k]) => !['lines', 'allocations', 'timeline', 'available_transitions'].includes(k)));
  const einvoice = einvoiceShapes(fullExample(schemas.EinvoiceStatus, doc) as Json);
  const claims = claimShapes(fullExample(schemas.ClaimAnswer, doc) as Json);

  const byOperation: Record<string, Json> = {
    'post /receivables/invoices': pick(invoiceExamples, ['draft']),
    'get /receivables/invoices/{id}': invoiceExamples,
    'patch /receivables/invoices/{id}': pick(invoiceExamples, ['draft']),
    'post /receivables/invoices/{id}/attachments': invoiceExamples,
    'get /receivables/invoices': {
      page: { summary: 'A page: an issued invoice and a draft', value: { documents: [listItem(docs.issued), listItem(docs.draft)], next_cursor: 'eyJrIjoiMjAyNi0wMS0xNSJ9' } },
    },
    'get /receivables/invoices/{id}/einvoice': einvoice,
    'post /expenses/claims': pick(claims, ['draft']),
    'get /expenses/claims/{id}': claims,
    'post /expenses/claims/{id}/lines': pick(claims, ['draft']),
    'patch /expenses/claims/{id}/lines/{line_id}': pick(claims, ['draft']),
    'post /expenses/claims/{id}/lines/{line_id}/withdraw': pick(claims, ['draft']),
  };
  for (const [key, examples] of Object.entries(byOperation)) {
    const [method, path] = key.split(' ') as [string, string];
    const op = doc.paths?.[path]?.[method];
    if (!op) continue;
    for (const [status, res] of Object.entries<Json>(op.responses ?? {})) {
      const media = status.startsWith('2') ? res.content?.['application/json'] : undefined;
      if (media) media.examples = examples;
    }
  }
}
