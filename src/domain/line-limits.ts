/**
 * How many lines one document or claim may hold. Each bounds the work and memory of one request
 * (lines are checked, priced, written and read back whole) and keeps every statement shape bounded.
 *
 * - 200 lines per sales invoice, credit note or debit note: the MyInvois document of such a
 *   document (about 1 KB of UBL JSON per line, with its tax and classification) stays well inside
 *   LHDN's 300 KB per document; a longer bill is split into several documents, as LHDN would ask.
 * - 300 lines per expense claim (withdrawn ones included: they stay on the claim and are read with
 *   it): a month of daily receipts, mileage and per diems several times over; more belongs in
 *   another claim.
 */
export const DOCUMENT_LINES_MAX = 200;
export const CLAIM_LINES_MAX = 300;
