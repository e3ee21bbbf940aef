/** The receivables vocabulary: closed sets every layer (schema, services, routers) imports. */

export const DOCUMENT_KINDS = ['sales_invoice', 'customer_credit_note', 'customer_debit_note'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Sort keys of the receivables document list (docs/design.md §9). */
export const DOCUMENT_LIST_SORTS = ['created_at', 'invoice_date', 'due_on', 'gross_amount', 'reference', 'updated_at'] as const;
export type DocumentListSort = (typeof DOCUMENT_LIST_SORTS)[number];

/** Sort keys of the customer list (docs/design.md §12); code by default. */
export const CUSTOMER_LIST_SORTS = ['code', 'legal_name', 'created_at'] as const;
export type CustomerListSort = (typeof CUSTOMER_LIST_SORTS)[number];

export const PARTY_KINDS = ['organization', 'individual'] as const;
export type PartyKind = (typeof PARTY_KINDS)[number];

/** MyInvois registration types of a buyer (brn: business registration, nric: MyKad, ...). */
export const REGISTRATION_TYPES = ['brn', 'nric', 'passport', 'army'] as const;
export type RegistrationType = (typeof REGISTRATION_TYPES)[number];

/** How a customer paid (docs/design.md §16). */
export const RECEIPT_METHODS = ['bank_transfer', 'cheque', 'cash', 'card', 'fpx', 'duitnow', 'other'] as const;
export type ReceiptMethod = (typeof RECEIPT_METHODS)[number];

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'boolean', 'select'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** Which records a custom field definition applies to. */
export const CUSTOM_FIELD_RECORD_TYPES = ['receivable_document', 'customer', 'expense_claim'] as const;
export type CustomFieldRecordType = (typeof CUSTOM_FIELD_RECORD_TYPES)[number];

export const TRADE_LINE_KINDS = ['delivery', 'sales_return'] as const;
export type TradeLineKind = (typeof TRADE_LINE_KINDS)[number];

/** The tax regimes a tax code may belong to (the line answers it as `tax_pack_kind`). */
export const TAX_PACK_KINDS = ['my_sst'] as const;
export type TaxPackKind = (typeof TAX_PACK_KINDS)[number];
