/**
 * Bank statements: how a CSV export is read. A mapping names columns by their heading (compared
 * case-insensitively; each field may list several headings a bank has used), the date format, and
 * how the amount is given: one signed column (`-1234.56`, `(1,234.56)`, `1,234.56 CR`/`DR`), separate
 * debit and credit columns, or an amount with a type column (CR/DR).
 */
export const STATEMENT_DATE_FORMATS = ['DD/MM/YYYY', 'DD-MM-YYYY', 'DD.MM.YYYY', 'DD/MM/YY', 'DD MMM YYYY', 'DD-MMM-YYYY', 'YYYY-MM-DD'] as const;
export type StatementDateFormat = (typeof STATEMENT_DATE_FORMATS)[number];

export const AMOUNT_LAYOUTS = ['signed', 'debit_credit', 'amount_type'] as const;
export type AmountLayout = (typeof AMOUNT_LAYOUTS)[number];

/** Headings of one field: the first one a file has is read. */
export type Headings = string[];

export interface StatementMapping {
  date: Headings;
  date_format: StatementDateFormat;
  amount_layout: AmountLayout;
  /** `signed` and `amount_type`: the amount's column. */
  amount?: Headings;
  /** `debit_credit`: money out and money in, each unsigned. */
  debit?: Headings;
  credit?: Headings;
  /** `amount_type`: the column saying CR (money in) or DR (money out). */
  type?: Headings;
  /** Joined with a space, in this order, into the line's description. */
  description: Headings[];
  reference?: Headings;
  balance?: Headings;
}

export const STATEMENT_PRESETS = ['cimb_bizchannel', 'generic_debit_credit', 'generic_signed'] as const;
export type StatementPreset = (typeof STATEMENT_PRESETS)[number];

/**
 * The known layouts. CIMB BizChannel's "BizChannel Standard – CSV" account statement gives the amount
 * in "Tran Amt." with "Tran Type" (DR/CR) and the payer's reference in "Doc Ref No.". The generic
 * ones fit most other Malaysian internet-banking exports (Maybank2u Biz, Public Bank PBe, RHB Reflex,
 * Hong Leong Connect): a date, a description, a reference, debit and credit (or one signed amount)
 * and a balance; their date format is chosen when the account is set up.
 */
export const PRESET_MAPPINGS: Record<StatementPreset, StatementMapping> = {
  cimb_bizchannel: {
    date: ['Tran Date', 'Transaction Date', 'Post Date', 'Date'],
    date_format: 'DD/MM/YYYY',
    amount_layout: 'amount_type',
    amount: ['Tran Amt.', 'Tran Amt', 'Transaction Amount', 'Amount'],
    type: ['Tran Type', 'Transaction Type', 'DR/CR'],
    description: [['Description', 'Transaction Description'], ['Payment Details', 'Other Payment Details', 'Remarks']],
    reference: ['Doc Ref No.', 'Doc Ref No', 'Reference No.', 'Reference'],
    balance: ['Balance', 'Available Balance', 'Ledger Balance'],
  },
  generic_debit_credit: {
    date: ['Transaction Date', 'Date', 'Posting Date', 'Value Date', 'Entry Date'],
    date_format: 'DD/MM/YYYY',
    amount_layout: 'debit_credit',
    debit: ['Debit', 'Debit Amount', 'Withdrawal', 'Withdrawals', 'DR'],
    credit: ['Credit', 'Credit Amount', 'Deposit', 'Deposits', 'CR'],
    description: [['Description', 'Transaction Description', 'Particulars', 'Details'], ['Payment Details', 'Recipient Reference', 'Remarks']],
    reference: ['Reference', 'Reference No.', 'Ref No.', 'Cheque No.', 'Ref-1', 'Reference 1'],
    balance: ['Balance', 'Running Balance', 'Ledger Balance'],
  },
  generic_signed: {
    date: ['Transaction Date', 'Date', 'Posting Date', 'Value Date'],
    date_format: 'DD/MM/YYYY',
    amount_layout: 'signed',
    amount: ['Amount', 'Transaction Amount'],
    description: [['Description', 'Transaction Description', 'Particulars', 'Details'], ['Payment Details', 'Remarks']],
    reference: ['Reference', 'Reference No.', 'Ref No.', 'Ref-1'],
    balance: ['Balance', 'Running Balance'],
  },
};

/** Line statuses: a credit waits `open` until accepted (`matched`) or `ignored`; a debit stays `open`. */
export const STATEMENT_LINE_STATUSES = ['open', 'matched', 'ignored'] as const;
export type StatementLineStatus = (typeof STATEMENT_LINE_STATUSES)[number];

/** An upload is read up to these bounds (bytes of the text, rows of the file). */
export const STATEMENT_LIMITS = { bytes: 512 * 1024, rows: 5000, headerSearchRows: 30, cell: 500 } as const;
