/**
 * A batch rendered in the layouts accounting systems import. Pure: the same batch always gives the
 * same bytes (entries in order of writing, lines in order, money to the base currency's places,
 * CRLF line ends where the vendor's template is a spreadsheet CSV). Which vendor page each layout
 * follows, and what is inferred, is in the README (journal export).
 * - csv: one row per line, every field of the JSON batch.
 * - sql_account: SQL Account's text import (semicolon-separated MASTER and DETAIL rows, dates
 *   DD/MM/YYYY, field sizes of the published layouts), journal entry (GL_JE): one MASTER per entry
 *   and one DETAIL per line with DR and CR.
 * - autocount: AutoCount's journal entry fields (master DocNo, DocDate, JournalType, CurrencyCode,
 *   CurrencyRate, Description; detail AccNo, Description, Ref, DR, CR), one row per line with the
 *   entry's master fields repeated; the side of nothing is left empty (the fields are nullable).
 * - xero: Xero's manual journal import template (*Narration, *Date, Description, *AccountCode,
 *   *TaxRate, *Amount, tracking): one journal per entry, a debit positive and a credit negative.
 */
import type { JournalEntryKind, JournalExportFormat, JournalSourceType } from '../../domain/journal';
import { Dec } from '../../lib/money';

export interface BatchLine {
  account_id: string;
  account_code: string;
  debit: string;
  credit: string;
  currency: string;
  amount: string;
  analytic_account_id: string | null;
}

export interface BatchEntry {
  id: string;
  date: string;
  kind: JournalEntryKind;
  source: { type: JournalSourceType; id: string };
  reference: string;
  narration: string;
  lines: BatchLine[];
}

export interface Batch {
  number: number;
  up_to: string;
  created_at: string;
  entries: BatchEntry[];
}

/** A CSV field: quoted when it holds a separator, a quote or a line break (quotes doubled). */
function field(value: string, separator = ','): string {
  return value.includes(separator) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
const row = (values: string[], separator = ',') => values.map((v) => field(v, separator)).join(separator);
const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
/** The document number a batch's entry goes by in another system: batch and position, stable. */
const docNo = (batch: Batch, index: number) => `JE${batch.number}-${String(index + 1).padStart(4, '0')}`;
/** The entry's description, cut to the vendor's field size. */
const describe = (e: BatchEntry, size: number) => e.narration.slice(0, size);

export const CSV_COLUMNS = ['batch', 'entry_id', 'date', 'kind', 'source_type', 'source_id', 'reference', 'line', 'account_code', 'account_id', 'debit', 'credit', 'currency', 'amount', 'analytic_account_id'];

function csv(batch: Batch): string {
  const rows = [row(CSV_COLUMNS)];
  for (const e of batch.entries) {
    e.lines.forEach((l, i) =>
      rows.push(row([String(batch.number), e.id, e.date, e.kind, e.source.type, e.source.id, e.reference, String(i + 1), l.account_code, l.account_id, l.debit, l.credit, l.currency, l.amount, l.analytic_account_id ?? ''])),
    );
  }
  return rows.join('\r\n') + '\r\n';
}

/**
 * The rows carry no heading (the import reads every MASTER row as a document): MASTER;DOCNO;DOCDATE;
 * POSTDATE;DESCRIPTION;CANCELLED; and DETAIL;DOCNO;CODE;DESCRIPTION;REF;PROJECT;DR;CR; ('----' is
 * SQL Account's "no project"). DOCNO holds 20 characters and DESCRIPTION 150 in the published layouts.
 */
const SQL_ACCOUNT_DESCRIPTION = 150;

function sqlAccount(batch: Batch): string {
  const rows: string[] = [];
  const clean = (s: string) => s.replace(/[;\r\n]/g, ' ');
  batch.entries.forEach((e, i) => {
    const no = docNo(batch, i);
    const description = clean(describe(e, SQL_ACCOUNT_DESCRIPTION));
    rows.push([...['MASTER', no, ddmmyyyy(e.date), ddmmyyyy(e.date), description, 'F'], ''].join(';'));
    for (const l of e.lines) rows.push([...['DETAIL', no, l.account_code, description, clean(e.reference), '----', l.debit, l.credit], ''].join(';'));
  });
  return rows.join('\r\n') + '\r\n';
}

const AUTOCOUNT_COLUMNS = ['DocNo', 'DocDate', 'JournalType', 'CurrencyCode', 'CurrencyRate', 'Description', 'AccNo', 'DetailDescription', 'Ref', 'DR', 'CR'];
/** The journal type of AutoCount's own example; every amount is in the base currency, at rate 1. */
const AUTOCOUNT_JOURNAL_TYPE = 'GENERAL';
/** AutoCount's field sizes: master description 80, detail description 100, detail reference 20. */
const AUTOCOUNT_SIZES = { description: 80, detailDescription: 100, ref: 20 };

function autocount(batch: Batch, baseCurrency: string): string {
  const rows = [row(AUTOCOUNT_COLUMNS)];
  const side = (amount: string) => (new Dec(amount).isZero() ? '' : amount);
  batch.entries.forEach((e, i) => {
    const master = [docNo(batch, i), ddmmyyyy(e.date), AUTOCOUNT_JOURNAL_TYPE, baseCurrency, '1', describe(e, AUTOCOUNT_SIZES.description)];
    for (const l of e.lines) {
      const detail = `${e.kind} ${l.currency} ${l.amount}`.slice(0, AUTOCOUNT_SIZES.detailDescription);
      rows.push(row([...master, l.account_code, detail, e.reference.slice(0, AUTOCOUNT_SIZES.ref), side(l.debit), side(l.credit)]));
    }
  });
  return rows.join('\r\n') + '\r\n';
}

const XERO_COLUMNS = ['*Narration', '*Date', 'Description', '*AccountCode', '*TaxRate', '*Amount', 'TrackingName1', 'TrackingOption1', 'TrackingName2', 'TrackingOption2'];
/** SST is posted to its own account by the entries, so no journal line carries a tax rate of its own. */
export const XERO_TAX_RATE = 'Tax Exempt';

function xero(batch: Batch): string {
  const rows = [row(XERO_COLUMNS)];
  batch.entries.forEach((e, i) => {
    // Xero groups the rows of one journal by narration and date: the document number keeps entries apart.
    const narration = `${docNo(batch, i)} ${describe(e, 200)}`;
    for (const l of e.lines) {
      const amount = new Dec(l.debit).minus(l.credit);
      rows.push(row([narration, ddmmyyyy(e.date), `${e.kind} ${l.currency} ${l.amount}`, l.account_code, XERO_TAX_RATE, amount.toFixed(l.debit.split('.')[1]?.length ?? 2), '', '', '', '']));
    }
  });
  return rows.join('\r\n') + '\r\n';
}

export const CONTENT_TYPES: Record<JournalExportFormat, string> = {
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  sql_account: 'text/plain; charset=utf-8',
  autocount: 'text/csv; charset=utf-8',
  xero: 'text/csv; charset=utf-8',
};

export const FILE_EXTENSIONS: Record<JournalExportFormat, string> = { json: 'json', csv: 'csv', sql_account: 'txt', autocount: 'csv', xero: 'csv' };

/** The batch in a file layout (json: the batch answer as the API gives it, two-space indented); amounts are in `baseCurrency`. */
export function renderBatch(batch: Batch, format: JournalExportFormat, baseCurrency: string): string {
  switch (format) {
    case 'csv':
      return csv(batch);
    case 'sql_account':
      return sqlAccount(batch);
    case 'autocount':
      return autocount(batch, baseCurrency);
    case 'xero':
      return xero(batch);
    case 'json':
      return JSON.stringify({ ...batch, entries: batch.entries.map(({ reference: _r, narration: _n, ...e }) => e) }, null, 2) + '\n';
  }
}
