/**
 * Reading a bank's CSV export into statement lines with a mapping: a bounded CSV parse (RFC 4180
 * quoting; at most STATEMENT_LIMITS.rows rows and cells of STATEMENT_LIMITS.cell characters), the
 * heading row found among the first rows (banks print the account's details above it), then each row's
 * date, amount, description, reference and balance. Every unreadable cell is a refusal pointing at its
 * row and column (`/csv/rows/<row>/<heading>`, rows numbered as a spreadsheet shows them).
 */
import { AMOUNT_LAYOUTS, STATEMENT_LIMITS, type Headings, type StatementDateFormat, type StatementMapping } from '../../domain/bank-statements';
import { AppError } from '../../lib/errors';
import { Dec } from '../../lib/money';
import { Refusals } from '../../lib/refusals';

export interface ReadLine {
  row: number;
  date: string;
  amount: string;
  description: string;
  reference: string;
  balance: string | null;
}

const MAX_ERRORS = 20;

/** Splits CSV text into rows of cells; refuses more rows or longer cells than the limits. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endCell = () => {
    if (cell.length > STATEMENT_LIMITS.cell) tooBig(`row ${rows.length + 1} has a cell longer than ${STATEMENT_LIMITS.cell} characters`);
    row.push(cell);
    cell = '';
  };
  const endRow = () => {
    endCell();
    if (row.some((c) => c.trim() !== '')) rows.push(row);
    if (rows.length > STATEMENT_LIMITS.rows) tooBig(`the file has more than ${STATEMENT_LIMITS.rows} rows; upload it in parts`);
    row = [];
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === '') (cell = ''), (quoted = true);
    else if (c === ',') endCell();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else cell += c;
  }
  if (quoted) throw new AppError('validation', { detail: 'The CSV ends inside a quoted cell', errors: [{ pointer: '/csv', detail: `a quote opened in row ${rows.length + 1} is never closed` }] });
  if (cell !== '' || row.length) endRow();
  return rows;
}

function tooBig(detail: string): never {
  throw new AppError('validation', { detail: 'The CSV is too large', errors: [{ pointer: '/csv', detail }] });
}

/** A heading as one JSON Pointer segment (`~` and `/` escaped). */
const pointerSegment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** The index of the first of `headings` present in the heading row, or -1. */
const columnOf = (header: string[], headings: Headings | undefined) => {
  for (const h of headings ?? []) {
    const at = header.findIndex((c) => norm(c) === norm(h));
    if (at >= 0) return at;
  }
  return -1;
};

interface Columns {
  date: number;
  amount: number;
  debit: number;
  credit: number;
  type: number;
  description: number[];
  reference: number;
  balance: number;
}

function requiredColumns(m: StatementMapping): (keyof StatementMapping)[] {
  if (m.amount_layout === 'signed') return ['date', 'amount'];
  if (m.amount_layout === 'debit_credit') return ['date', 'debit', 'credit'];
  return ['date', 'amount', 'type'];
}

/** Finds the heading row (the first row holding every required column) and the columns' places. */
function findHeader(rows: string[][], m: StatementMapping): { at: number; header: string[]; cols: Columns } {
  const required = requiredColumns(m);
  for (let at = 0; at < Math.min(rows.length, STATEMENT_LIMITS.headerSearchRows); at++) {
    const header = rows[at]!;
    if (required.every((k) => columnOf(header, m[k] as Headings) >= 0)) {
      const cols: Columns = {
        date: columnOf(header, m.date),
        amount: columnOf(header, m.amount),
        debit: columnOf(header, m.debit),
        credit: columnOf(header, m.credit),
        type: columnOf(header, m.type),
        description: m.description.map((h) => columnOf(header, h)).filter((i) => i >= 0),
        reference: columnOf(header, m.reference),
        balance: columnOf(header, m.balance),
      };
      return { at, header, cols };
    }
  }
  const wanted = required.map((k) => `${k} (${((m[k] as Headings) ?? []).map((h) => `"${h}"`).join(' or ')})`).join(', ');
  throw new AppError('validation', {
    detail: 'No heading row of the mapping was found in the CSV',
    errors: [{ pointer: '/csv', detail: `none of the first ${STATEMENT_LIMITS.headerSearchRows} rows names every column the mapping needs: ${wanted}` }],
  });
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A date cell in `format` as YYYY-MM-DD, or undefined when it is not one (or no such day). */
export function parseStatementDate(value: string, format: StatementDateFormat): string | undefined {
  const v = value.trim();
  let d: number, mo: number, y: number;
  let m: RegExpMatchArray | null;
  switch (format) {
    case 'YYYY-MM-DD':
      if (!(m = v.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/))) return undefined;
      [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
      break;
    case 'DD MMM YYYY':
    case 'DD-MMM-YYYY':
      if (!(m = v.match(format === 'DD MMM YYYY' ? /^(\d{1,2}) +([A-Za-z]{3}) +(\d{4})$/ : /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/))) return undefined;
      [d, mo, y] = [+m[1]!, MONTHS.indexOf(m[2]!.toLowerCase()) + 1, +m[3]!];
      break;
    default: {
      const sep = format[2]!;
      const yy = format.endsWith('YYYY') ? '\\d{4}' : '\\d{2}';
      if (!(m = v.match(new RegExp(`^(\\d{1,2})\\${sep}(\\d{1,2})\\${sep}(${yy})$`)))) return undefined;
      [d, mo, y] = [+m[1]!, +m[2]!, m[3]!.length === 2 ? 2000 + +m[3]! : +m[3]!];
    }
  }
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (mo < 1 || date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}

/**
 * An amount cell as a signed decimal string: `1,234.56`, `-1234.56`, `(1,234.56)`, `1,234.56 CR`
 * (money in) or `1,234.56 DR` / `1,234.56-` (money out), `RM` allowed before it; '' when empty;
 * undefined when it is not an amount.
 */
export function parseStatementAmount(value: string): string | undefined {
  let v = value.trim().replace(/^RM\s*/i, '');
  if (v === '' || v === '-') return '';
  let negative = false;
  const suffix = v.match(/\s*(CR|DR|C|D)$/i);
  if (suffix) {
    negative = suffix[1]!.toUpperCase().startsWith('D');
    v = v.slice(0, -suffix[0].length).trim();
  }
  if (/^\(.*\)$/.test(v)) (negative = true), (v = v.slice(1, -1).trim());
  if (v.startsWith('-')) (negative = !negative), (v = v.slice(1).trim());
  else if (v.endsWith('-')) (negative = true), (v = v.slice(0, -1).trim());
  v = v.replace(/^RM\s*/i, '');
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,4})?$/.test(v)) return undefined;
  const d = new Dec(v.replace(/,/g, ''));
  return (negative && !d.isZero() ? d.negated() : d).toFixed();
}

/** The line's signed amount from its cells, or a refusal's text. */
function amountOf(cells: string[], cols: Columns, layout: (typeof AMOUNT_LAYOUTS)[number]): { amount?: string; fault?: [number, string] } {
  const cell = (i: number) => (i >= 0 ? (cells[i] ?? '') : '');
  if (layout === 'debit_credit') {
    const debit = parseStatementAmount(cell(cols.debit));
    const credit = parseStatementAmount(cell(cols.credit));
    if (debit === undefined) return { fault: [cols.debit, `"${cell(cols.debit)}" is not an amount`] };
    if (credit === undefined) return { fault: [cols.credit, `"${cell(cols.credit)}" is not an amount`] };
    const out = new Dec(debit || 0).abs();
    const inn = new Dec(credit || 0).abs();
    if (!out.isZero() && !inn.isZero()) return { fault: [cols.credit, 'has both a debit and a credit'] };
    if (out.isZero() && inn.isZero()) return { fault: [cols.credit, 'has neither a debit nor a credit'] };
    return { amount: inn.isZero() ? out.negated().toFixed() : inn.toFixed() };
  }
  const raw = parseStatementAmount(cell(cols.amount));
  if (raw === undefined || raw === '') return { fault: [cols.amount, `"${cell(cols.amount)}" is not an amount`] };
  if (layout === 'signed') return new Dec(raw).isZero() ? { fault: [cols.amount, 'is zero'] } : { amount: raw };
  const type = norm(cell(cols.type));
  const inn = ['cr', 'c', 'credit'].includes(type);
  if (!inn && !['dr', 'd', 'debit'].includes(type)) return { fault: [cols.type, `"${cell(cols.type)}" is neither CR nor DR`] };
  const abs = new Dec(raw).abs();
  if (abs.isZero()) return { fault: [cols.amount, 'is zero'] };
  return { amount: inn ? abs.toFixed() : abs.negated().toFixed() };
}

/**
 * The statement's lines, in file order. A refusal (422 validation) names up to 20 cells at fault,
 * each at `/csv/rows/<row>/<heading>`; a row with no amount at all (a footer such as "Total", a
 * balance brought forward) is not a transaction and is skipped.
 */
export function readStatement(text: string, mapping: StatementMapping): ReadLine[] {
  if (Buffer.byteLength(text, 'utf8') > STATEMENT_LIMITS.bytes) tooBig(`the CSV is larger than ${STATEMENT_LIMITS.bytes} bytes; upload it in parts`);
  const rows = parseCsv(text);
  const { at, header, cols } = findHeader(rows, mapping);
  const r = new Refusals();
  const out: ReadLine[] = [];
  let faults = 0;
  const fault = (row: number, col: number, detail: string) => {
    if (faults++ < MAX_ERRORS) r.add(`/csv/rows/${row}/${pointerSegment((header[col] ?? `column ${col + 1}`).trim())}`, `row ${row}, column "${(header[col] ?? '').trim()}": ${detail}`);
  };
  for (let i = at + 1; i < rows.length; i++) {
    const cells = rows[i]!;
    const row = i + 1;
    const dateCell = (cells[cols.date] ?? '').trim();
    // No amount at all: not a transaction (a footer such as "Total", a balance brought forward).
    const amountCells = mapping.amount_layout === 'debit_credit' ? [cols.debit, cols.credit] : [cols.amount];
    if (amountCells.every((c) => (cells[c] ?? '').trim() === '')) continue;
    const date = parseStatementDate(dateCell, mapping.date_format);
    if (!date) fault(row, cols.date, `"${dateCell}" is not a date in the format ${mapping.date_format}`);
    const amount = amountOf(cells, cols, mapping.amount_layout);
    if (amount.fault) fault(row, amount.fault[0], amount.fault[1]);
    let balance: string | null = null;
    if (cols.balance >= 0) {
      const b = parseStatementAmount(cells[cols.balance] ?? '');
      if (b === undefined) fault(row, cols.balance, `"${cells[cols.balance]}" is not an amount`);
      else balance = b === '' ? null : b;
    }
    if (!date || !amount.amount) continue;
    const description = cols.description.map((c) => (cells[c] ?? '').trim()).filter(Boolean).join(' ');
    out.push({ row, date, amount: amount.amount, description, reference: cols.reference >= 0 ? (cells[cols.reference] ?? '').trim() : '', balance });
  }
  if (faults > MAX_ERRORS) r.add('/csv', `${faults - MAX_ERRORS} more cells could not be read`);
  r.throwIfAny();
  if (!out.length) throw new AppError('validation', { detail: 'The CSV holds no statement lines', errors: [{ pointer: '/csv', detail: `no line follows the heading row (row ${at + 1})` }] });
  return out;
}
