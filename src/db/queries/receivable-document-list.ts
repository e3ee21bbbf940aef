import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { executePrepared, oncePerHandle, queryRows, withCompiledRowMapping, type Database } from '../client';
import { analyticAccounts, receivableDocuments as d, type DocumentKind } from '../schema';
import { attachmentIdsColumn, decodeAttachmentIds } from './files';
import { groupCustomerIdsSql, groupCustomersSql, isGroupCompanySql } from './customers';
import { KEY_VALUE_PATTERN, keysetCondition, type KeyType } from './keyset';
import { escapeLike, likePattern } from './like-pattern';

/**
 * The receivables list: keyset pagination over (sort key, id), every filter in the same statement.
 * Each sort has an (organization_id, key, id) index (see the schema), so a page is an index scan
 * that starts at the cursor and stops after `limit + 1` matching rows, whatever the page depth.
 */

import { DOCUMENT_LIST_SORTS as LIST_SORTS } from '../../domain/receivables';
export { LIST_SORTS };
export type ListSort = (typeof LIST_SORTS)[number];
export type ListOrder = 'asc' | 'desc';

export interface ListFilters {
  kind?: DocumentKind;
  /** State keys (at least one when present), sorted and each once. */
  states?: string[];
  customerId?: string;
  currency?: string;
  /** true: issued invoices and debit notes with something outstanding, due before today; false: the same, due today or later. */
  overdue?: boolean;
  /** Changed at or after this instant (inclusive), and before `updatedBefore`. */
  updatedAfter?: string;
  /**
   * Set with updatedAfter: the start of the oldest transaction running when the page was asked for
   * (updatedHorizon). Rows changed at or after it may belong to writes not yet committed and are held
   * back, so that a sync resuming from the last updated_at it saw never skips a row that became
   * visible after it read. Not part of the cursor's binding.
   */
  updatedBefore?: string;
  group?: 'only' | 'none';
  projectId?: string;
  outstanding?: boolean;
  q?: string;
  invoiceDateFrom?: string;
  invoiceDateTo?: string;
}

export interface ListQuery {
  organizationId: string;
  /** The organization's today: the counterparty map is read as at this day. */
  today: string;
  sort: ListSort;
  order: ListOrder;
  filters: ListFilters;
  /** The last row of the previous page: its sort value (text form, null for a draft's reference) and id. */
  after?: { value: string | null; id: string };
  /** Rows to read: the page size plus one, to know whether there is a next page. */
  take: number;
  /** With an invoice-date range and another sort: read the range first (see rangeFirst). */
  rangeFirst?: boolean;
  /**
   * The values are placeholders named as listValues names them (see pageTemplate): q's patterns are
   * then the placeholders `qPrefix` and `qLike` instead of being derived from the term.
   */
  template?: boolean;
  /** In a template: whether the state filter holds one state (an equality) or several. */
  singleState?: boolean;
}

/**
 * With q, which part of the search a branch of the page's statement applies; the customers whose
 * legal name contains q are the rows of the CTE `nc` there (see qPageWhere). `references`: the
 * references only; `names`: the documents of nc's customers only (their ids as an array, which the
 * customer index takes); `many`: both, nc's customers as a hashed look-up while the sort's index is
 * walked. Without a mode (a bare listClauses) the condition reads customers by itself.
 */
type SearchPart = 'references' | 'names' | 'many';
interface PageQuery extends ListQuery {
  search?: SearchPart;
  /** The leading sort key wrapped in a no-op: the rows are read through the filters' indexes and sorted (see rangeFirst). */
  unordered?: boolean;
}

/**
 * Up to this many customers whose legal name contains q, their documents are read per customer (in
 * creation order) or through the customer index; more, and the matching documents are common
 * enough for the sort's own index, filtered, to find a page at once.
 */
export const NAME_CUSTOMERS_CAP = 32;

/** Text form of each sort key, exact enough to be cast back (timestamps keep their microseconds). */
const SORT_VALUE: Record<ListSort, SQL<string | null>> = {
  created_at: sql`${d.createdAt}::text`,
  invoice_date: sql`${d.invoiceDate}::text`,
  due_on: sql`${d.dueOn}::text`,
  gross_amount: sql`${d.grossAmount}::text`,
  reference: sql`${d.reference}`,
  updated_at: sql`${d.updatedAt}::text`,
};

const KEY_TYPE: Record<Exclude<ListSort, 'reference'>, KeyType> = {
  created_at: 'timestamptz',
  invoice_date: 'date',
  due_on: 'date',
  gross_amount: 'numeric',
  updated_at: 'timestamptz',
};

/** What a valid cursor value of each sort looks like (checked before it reaches SQL). */
export const SORT_VALUE_PATTERN: Record<Exclude<ListSort, 'reference'>, RegExp> = {
  created_at: KEY_VALUE_PATTERN.timestamptz,
  invoice_date: KEY_VALUE_PATTERN.date,
  due_on: KEY_VALUE_PATTERN.date,
  gross_amount: KEY_VALUE_PATTERN.numeric,
  updated_at: KEY_VALUE_PATTERN.timestamptz,
};

/** The key column of each sort but reference. */
const KEY_COLUMN = { created_at: d.createdAt, invoice_date: d.invoiceDate, due_on: d.dueOn, gross_amount: d.grossAmount, updated_at: d.updatedAt };

/**
 * The key columns in index order. References: drafts (null) last in both directions, expressed as
 * a leading boolean so that each direction is one uniform row comparison its own index serves.
 */
function keyColumns(sort: ListSort, order: ListOrder): SQL[] {
  if (sort === 'reference') {
    const flag = order === 'asc' ? sql`(${d.reference} is null)` : sql`(${d.reference} is not null)`;
    return [flag, sql`(coalesce(${d.reference}, '') collate "C")`, sql`${d.id}`];
  }
  return [sql`${KEY_COLUMN[sort]}`, sql`${d.id}`];
}

/** The reference cursor's leading flag: drafts (no reference) last in both directions (see keyColumns). */
function referenceFlag(order: ListOrder, value: string | null): boolean {
  const isNull = value === null;
  return order === 'asc' ? isNull : !isNull;
}

function afterCursor(q: PageQuery, after: { value: string | null; id: string }): SQL {
  const { sort, order } = q;
  if (sort === 'reference') {
    // Drafts (no reference) last in both directions: a leading flag before the (reference, id) key.
    const op = sql.raw(order === 'asc' ? '>' : '<');
    const keys = sql.join(keyColumns(sort, order), sql`, `);
    const flag = q.template ? sql.placeholder('afterFlag') : referenceFlag(order, after.value);
    return sql`(${keys}) ${op} (${flag}::boolean, (${after.value ?? ''}::text collate "C"), ${after.id}::uuid)`;
  }
  // Every other sort's value is never null (the service checks it against SORT_VALUE_PATTERN).
  return keysetCondition(KEY_COLUMN[sort], d.id, order, { value: after.value as string, id: after.id }, KEY_TYPE[sort]);
}


/**
 * What q searches, written once for the indexes (schema) and the queries: the reference (drafts have
 * none) and the customer reference joined by U+001F. The customer's legal name is the third field;
 * it is read from customers (see qPageWhere), not from a copy on the document.
 */
export const REFERENCES_TEXT = (t: { reference: unknown; customerReference: unknown }) =>
  sql`(coalesce(${t.reference} || chr(31), '') || ${t.customerReference})`;

/**
 * `q` is a case-insensitive substring of the reference, the customer reference or the customer's
 * current legal name (a term holds no control character, so a match never spans two fields). The
 * two references are searched by where the match starts: at the first character, which a btree
 * range on the lowered text answers (a document number typed from its beginning: `INV-0050`), or
 * further on, which the trigram index of the text after its first character answers. Document
 * numbers share very common trigrams (`inv`, `000`); that second index holds no `inv` at all
 * (every reference loses its first letter there), so a term that starts like a document number is
 * an empty lookup in it. `lower` is what ILIKE itself compares with; a term is at most 100
 * characters, hence `left`. The name: the documents of the customers whose legal name matches.
 */
/** q's two patterns: the term from the first character (`term%`) and anywhere (`%term%`), LIKE's specials escaped. */
interface TermPatterns {
  prefix: unknown;
  like: unknown;
}

/** The patterns' values for a term (a template's placeholders qPrefix and qLike take these). */
function termValues(term: string): { prefix: string; like: string } {
  return { prefix: `${escapeLike(term)}%`, like: likePattern(term) };
}

function termPatterns(q: ListQuery, term: string): TermPatterns {
  if (q.template) return { prefix: sql.placeholder('qPrefix'), like: sql.placeholder('qLike') };
  return termValues(term);
}

function referencesMatch(term: TermPatterns): SQL {
  const text = REFERENCES_TEXT(d);
  return sql`(lower(left(${text}, 100)) like lower(${term.prefix}) or substr(${text}, 2) ilike ${term.like})`;
}

function searchCondition(q: PageQuery, term: TermPatterns): SQL {
  if (q.search === 'references') return referencesMatch(term);
  if (q.search === 'names') return sql`${d.customerId} = any(array(select nc.id from nc))`;
  const named =
    q.search === 'many'
      ? sql`${d.customerId} in (select nc.id from nc)`
      : sql`${d.customerId} in (select c.id from customers c where c.organization_id = ${q.organizationId} and ${nameMatches(sql`c.legal_name`, term)})`;
  return sql`(${referencesMatch(term)} or ${named})`;
}

/**
 * `name ilike '%term%'`, written as ILIKE itself compares (both sides lowered with the same
 * collation, then matched): about a third of ILIKE's cost per name when the planner reads every
 * customer of the organization (3,030 here: about 1 ms); with many customers the trigram index of
 * this very expression serves it (customers_legal_name_lower_trgm).
 */
function nameMatches(name: SQL, term: TermPatterns): SQL {
  return sql`lower(${name}) like lower(${term.like})`;
}

/** The customers of the organization whose legal name contains the term (see nameMatches): the CTE `nc` of a q page. */
function nameCustomersCte(organizationId: string, term: TermPatterns): SQL {
  return sql`nc as materialized (select c.id from customers c where c.organization_id = ${organizationId} and ${nameMatches(sql`c.legal_name`, term)})`;
}

/**
 * An issued document is created before it is issued, and its invoice date is the day it was issued
 * in the organization's time zone, so its creation lies within a few days of its invoice date: from
 * three days before (a draft kept that long) to the end of that day, with a day's margin on each
 * side for any time zone. The documents for which that does not hold (opening balances brought in
 * by migration, created after their invoice date; drafts kept longer) are exactly those this
 * predicate selects, and a partial index holds them (receivable_documents_org_created_off_date in
 * the schema: the same expression, so that the planner matches it).
 */
function offDate(): SQL {
  return sql`(${d.issuedAt} is not null and (${d.createdAt} < ((${d.invoiceDate} - 4)::timestamp at time zone 'UTC') or ${d.createdAt} >= ((${d.invoiceDate} + 2)::timestamp at time zone 'UTC')))`;
}

/** The complement of offDate among issued documents, with the range it then implies on created_at. */
function onDate(f: ListFilters): SQL[] {
  const out: SQL[] = [
    sql`${d.createdAt} >= ((${d.invoiceDate} - 4)::timestamp at time zone 'UTC')`,
    sql`${d.createdAt} < ((${d.invoiceDate} + 2)::timestamp at time zone 'UTC')`,
  ];
  if (f.invoiceDateFrom !== undefined) out.push(sql`${d.createdAt} >= ((${f.invoiceDateFrom}::date - 4)::timestamp at time zone 'UTC')`);
  if (f.invoiceDateTo !== undefined) out.push(sql`${d.createdAt} < ((${f.invoiceDateTo}::date + 2)::timestamp at time zone 'UTC')`);
  return out;
}

function hasRange(f: ListFilters): boolean {
  return f.invoiceDateFrom !== undefined || f.invoiceDateTo !== undefined;
}

/**
 * One state is an equality, which the (organization, state, created_at, id) index answers in creation
 * order at any depth however rare the state; several are `= any(array)`, which no index returns in
 * order, so the sort's index is walked and filtered (states a screen combines are common enough).
 */
function stateCondition(q: PageQuery): SQL {
  const states = q.filters.states!;
  if (q.template) return isSingleState(q) ? sql`${d.state} = ${sql.placeholder('state')}` : sql`${d.state} = any(${sql.placeholder('states')}::text[])`;
  return states.length === 1 ? sql`${d.state} = ${states[0]}` : sql`${d.state} = any(${sql.param(states)}::text[])`;
}

/** In a template the states are a placeholder: how many there are is carried by `singleState`. */
function isSingleState(q: ListQuery): boolean {
  return q.singleState ?? (Array.isArray(q.filters.states) && q.filters.states.length === 1);
}

function filterConditions(q: PageQuery): SQL[] {
  const f = q.filters;
  const out: SQL[] = [sql`${d.organizationId} = ${q.organizationId}`];
  if (f.kind) out.push(sql`${d.kind} = ${f.kind}`);
  if (f.group === 'only') out.push(sql`${d.customerId} = any(${groupCustomerIdsSql(q.organizationId, q.today)})`);
  if (f.group === 'none') out.push(sql`${d.customerId} <> all(${groupCustomerIdsSql(q.organizationId, q.today)})`);
  if (f.projectId) {
    out.push(sql`${d.id} in (
      select l.document_id from receivable_line_shares s
      join receivable_document_lines l on l.organization_id = s.organization_id and l.id = s.line_id
      where s.organization_id = ${q.organizationId} and s.analytic_account_id = ${f.projectId}::uuid)`);
  }
  if (f.outstanding === true) out.push(sql`${d.issuedAt} is not null and ${d.outstanding} <> 0`);
  if (f.outstanding === false) out.push(sql`${d.issuedAt} is not null and ${d.outstanding} = 0`);
  if (f.states !== undefined) out.push(stateCondition(q));
  if (f.customerId !== undefined) out.push(sql`${d.customerId} = ${f.customerId}::uuid`);
  if (f.currency !== undefined) out.push(sql`${d.currency} = ${f.currency}`);
  if (f.overdue !== undefined) {
    // Owed by the customer: a credit note's outstanding is credit left to apply, never overdue.
    out.push(sql`${d.issuedAt} is not null and ${d.kind} <> 'customer_credit_note' and ${d.outstanding} > 0`);
    out.push(f.overdue ? sql`${d.dueOn} < ${q.today}::date` : sql`${d.dueOn} >= ${q.today}::date`);
  }
  if (f.updatedAfter !== undefined) out.push(sql`${d.updatedAt} >= ${f.updatedAfter}::timestamptz`);
  if (f.updatedBefore !== undefined) out.push(sql`${d.updatedAt} < ${f.updatedBefore}::timestamptz`);
  if (f.q !== undefined) out.push(searchCondition(q, termPatterns(q, f.q)));
  if (f.invoiceDateFrom !== undefined || f.invoiceDateTo !== undefined) out.push(sql`${d.issuedAt} is not null`);
  if (f.invoiceDateFrom !== undefined) out.push(sql`${d.invoiceDate} >= ${f.invoiceDateFrom}::date`);
  if (f.invoiceDateTo !== undefined) out.push(sql`${d.invoiceDate} <= ${f.invoiceDateTo}::date`);
  if (q.after) out.push(afterCursor(q, q.after));
  return out;
}

/**
 * An invoice-date range with another sort: documents are created around their invoice date, so
 * walking the sort's index from the newest row and filtering on the range can read most of the
 * organization before the range begins (the planner assumes the two are independent). The range
 * is then read first through its own index and only its rows are sorted: the leading key is
 * wrapped in a no-op so that it no longer matches the sort's index. The cost is that of the range,
 * so the service only asks for it when the range is narrow (countRangeUpTo).
 */
function rangeFirst(key: SQL, sort: ListSort): SQL {
  if (sort === 'created_at' || sort === 'updated_at') return sql`(${key} + interval '0 seconds')`;
  if (sort === 'reference') return sql`((${key})::int)`;
  return sql`(${key} + 0)`;
}

/** The WHERE and ORDER BY of a page, shared by the page query and EXPLAIN checks. */
export function listClauses(q: PageQuery) {
  const direction = q.order === 'asc' ? asc : desc;
  const keys = keyColumns(q.sort, q.order);
  if ((q.rangeFirst && q.sort !== 'invoice_date') || q.unordered) keys[0] = rangeFirst(keys[0]!, q.sort);
  return { where: and(...filterConditions(q))!, orderBy: keys.map((k) => direction(k)) };
}

/**
 * An invoice-date range in creation order: the page is taken from two index scans, each in the
 * sort's order and stopped at the page size, then merged by the outer query. Documents created
 * around their invoice date are read from the creation index between the bounds the range implies
 * (see offDate), the others from their own partial index. Same rows, same order as the plain filter.
 */
function creationRangeIds(db: Database, q: PageQuery): SQL {
  const { where, orderBy } = listClauses({ ...q, rangeFirst: false });
  const page = (w: SQL) => db.select({ id: d.id }).from(d).where(w).orderBy(...orderBy).limit(q.take);
  // On-date documents: the range is checked on each row read from the creation index (its bounds are
  // the index condition); written as `invoice_date + 0` and `invoice_date - 0` so that the planner,
  // which takes creation and invoice date for independent, neither reads the whole range through its
  // own index to sort it nor takes the two bounds for one narrow range (which would make walking
  // look costlier than reading all the creation bounds' rows and sorting them).
  const f = q.filters;
  const undated = listClauses({ ...q, rangeFirst: false, filters: { ...f, invoiceDateFrom: undefined, invoiceDateTo: undefined } }).where;
  const onDatePage = page(
    and(
      undated,
      sql`${d.issuedAt} is not null`,
      ...(f.invoiceDateFrom !== undefined ? [sql`(${d.invoiceDate} + 0) >= ${f.invoiceDateFrom}::date`] : []),
      ...(f.invoiceDateTo !== undefined ? [sql`(${d.invoiceDate} - 0) <= ${f.invoiceDateTo}::date`] : []),
      ...onDate(f),
    )!,
  );
  const offDatePage = page(and(where, offDate())!);
  return sql`(${onDatePage}) union all (${offDatePage})`;
}

/**
 * The documents of the customers in nc (few: at most NAME_CUSTOMERS_CAP), at most `take` of them.
 * In creation order without a range, per customer its newest documents from the cursor on (the
 * (organization, customer, created_at, id) index, stopped at the page size), merged: a name that a
 * few customers carry does not mean reading every document of theirs to sort them. Otherwise their
 * documents are read through the customer index and sorted (a bounded number: a few customers'),
 * never by walking the sort's index, which finds no end when they have none in the filters.
 */
function namedCustomersIds(db: Database, q: PageQuery): SQL {
  if (q.sort === 'created_at' && !hasRange(q.filters)) return mergedByCustomer(db, { ...q, filters: { ...q.filters, q: undefined } }, sql`nc`);
  const { where, orderBy } = listClauses({ ...q, search: 'names', unordered: true });
  return sql`${db.select({ id: d.id }).from(d).where(where).orderBy(...orderBy).limit(q.take)}`;
}

/**
 * group=only in creation order, without a range or q: the group's customers are few (a company's
 * sister companies) and hold a small share of the documents, so walking the creation index from a
 * cursor and fetching each row to test its customer reads many rows for a page (at a million
 * documents, 1,314 for the page after 10,000). Per group customer, its next documents from the
 * cursor on are read from the (organization, customer, created_at, id) index, stopped at the page
 * size, and merged, as namedCustomersIds does for a customer name. Same rows, same order.
 */
function groupOnlyIds(db: Database, q: PageQuery): SQL {
  // Each customer once (a customer mapped to the group twice would fill the page with copies).
  return mergedByCustomer(db, { ...q, filters: { ...q.filters, group: undefined } }, groupCustomersSql(q.organizationId, q.today));
}

/**
 * In creation order, per customer of `customers` (a relation with an `id` column, each customer
 * once) its next documents matching `q` from the cursor on, read from the (organization, customer,
 * created_at, id) index and stopped at the page size, then merged and cut to the page.
 */
function mergedByCustomer(db: Database, q: PageQuery, customers: SQL): SQL {
  const { where, orderBy } = listClauses(q);
  const perCustomer = db
    .select({ id: d.id, createdAt: d.createdAt })
    .from(d)
    .where(and(where, sql`${d.customerId} = pc.id`))
    .orderBy(...orderBy)
    .limit(q.take);
  const dir = sql.raw(q.order);
  return sql`select x.id from ${customers} as pc cross join lateral (${perCustomer}) x order by x.created_at ${dir}, x.id ${dir} limit ${q.take}`;
}

/** Whether a page is read through groupOnlyIds. */
function groupWalk(q: ListQuery): boolean {
  return q.filters.group === 'only' && q.sort === 'created_at' && !hasRange(q.filters) && q.filters.q === undefined;
}

/**
 * The ids of a page (at most `take` per branch, in no particular order: the outer query sorts them),
 * for one part of q (or none without q).
 */
function pageIds(db: Database, q: PageQuery): SQL {
  if (q.sort === 'created_at' && hasRange(q.filters)) return creationRangeIds(db, q);
  const { where, orderBy } = listClauses(q);
  return sql`${db.select({ id: d.id }).from(d).where(where).orderBy(...orderBy).limit(q.take)}`;
}

/**
 * q in one statement: the customers whose legal name contains it are read once (the CTE nc), and
 * their count picks the plan inside the statement. Both plans are in the statement, each behind a
 * condition on that count alone, which PostgreSQL checks once before running its branch (a
 * One-Time Filter, the other branch never runs). Up to NAME_CUSTOMERS_CAP customers: the documents
 * whose references match (the planner sees the term: the references' own indexes, or the sort's
 * index walked when the term is common) and those of the customers (namedCustomersIds), merged.
 * More: one walk of the sort's index, filtered on both (a name that common finds a page at once).
 */
function qPageWhere(db: Database, q: ListQuery, term: TermPatterns): SQL {
  const count = sql`(select count(*) from nc)`;
  const byReferences = pageIds(db, { ...q, search: 'references' });
  const byNames = namedCustomersIds(db, q);
  const many = pageIds(db, { ...q, search: 'many' });
  const ids = sql`with ${nameCustomersCte(q.organizationId, term)}
    (select f.id from ((${byReferences}) union all (${byNames})) f where ${count} <= ${NAME_CUSTOMERS_CAP})
    union all
    (select m.id from (${many}) m where ${count} > ${NAME_CUSTOMERS_CAP})`;
  return and(eq(d.organizationId, q.organizationId), sql`${d.id} = any(array(${ids}))`)!;
}

/** The page's statement (also what the plan checks EXPLAIN): one statement, q included. */
export function listDocumentsQuery(db: Database, q: ListQuery) {
  const creationRange = q.sort === 'created_at' && hasRange(q.filters);
  const { where: plainWhere, orderBy } = listClauses(creationRange ? { ...q, rangeFirst: false } : q);
  const where =
    q.filters.q !== undefined
      ? qPageWhere(db, q, termPatterns(q, q.filters.q))
      : creationRange
        ? and(eq(d.organizationId, q.organizationId), sql`${d.id} = any(array(${creationRangeIds(db, q)}))`)!
        : groupWalk(q)
          ? and(eq(d.organizationId, q.organizationId), sql`${d.id} = any(array(${groupOnlyIds(db, q)}))`)!
          : plainWhere;
  // The project per row of the page (a lateral probe of its key): a join could hash all the
  // organization's projects for a page's 26 rows (the planner cannot tell how many ids a q page holds).
  const project = db
    .select({ code: analyticAccounts.code, name: analyticAccounts.name })
    .from(analyticAccounts)
    .where(and(eq(analyticAccounts.organizationId, d.organizationId), eq(analyticAccounts.id, d.projectId)))
    .limit(1) // (at most one row by the key; the limit keeps the planner from flattening it into a join)
    .as('project');
  return db
    .select({
      doc: d,
      sortValue: SORT_VALUE[q.sort],
      projectCode: project.code,
      projectName: project.name,
      isGroupTransaction: isGroupCompanySql('receivable_documents.organization_id', 'receivable_documents.customer_id', q.today),
      // Per row of the page only (the subquery runs after the limit): the document's attachments, oldest first.
      attachmentIds: attachmentIdsColumn(d.organizationId, 'receivable_document', d.id),
    })
    .from(d)
    .leftJoinLateral(project, sql`true`)
    .where(where)
    .orderBy(...orderBy)
    .limit(q.take);
}

/** A value of the page's statement as a placeholder (named as listValues names it). */
const P = <T>(name: string) => sql.placeholder(name) as unknown as T;

/**
 * What decides the page statement's text (not its values): the sort, the direction, which filters
 * are present (group and outstanding by value: each value is its own condition), the cursor's
 * presence and the range-first plan. Every request of one shape runs the same text.
 */
function shapeKey(q: ListQuery): string {
  const f = q.filters;
  const has = (v: unknown) => (v === undefined ? '-' : '+');
  return [
    q.sort,
    q.order,
    q.rangeFirst ? 'r' : '-',
    has(f.kind),
    f.group ?? '-',
    has(f.projectId),
    f.outstanding ?? '-',
    has(f.q),
    has(f.invoiceDateFrom),
    has(f.invoiceDateTo),
    f.states === undefined ? '-' : f.states.length === 1 ? '1' : 'n',
    has(f.customerId),
    has(f.currency),
    f.overdue ?? '-',
    has(f.updatedAfter),
    has(f.updatedBefore),
    has(q.after),
  ].join('');
}

/** The query of `q`'s shape with placeholders for its values (see listValues). */
function pageTemplate(q: ListQuery): ListQuery {
  const f = q.filters;
  return {
    organizationId: P('organizationId'),
    today: P('today'),
    sort: q.sort,
    order: q.order,
    rangeFirst: q.rangeFirst,
    take: P('take'),
    template: true,
    singleState: f.states !== undefined && f.states.length === 1,
    filters: {
      kind: f.kind === undefined ? undefined : P('kind'),
      group: f.group,
      projectId: f.projectId === undefined ? undefined : P('projectId'),
      outstanding: f.outstanding,
      // The term's text is not used in a template: its patterns are the placeholders qPrefix and qLike.
      q: f.q === undefined ? undefined : '',
      invoiceDateFrom: f.invoiceDateFrom === undefined ? undefined : P('invoiceDateFrom'),
      invoiceDateTo: f.invoiceDateTo === undefined ? undefined : P('invoiceDateTo'),
      states: f.states === undefined ? undefined : P('states'),
      customerId: f.customerId === undefined ? undefined : P('customerId'),
      currency: f.currency === undefined ? undefined : P('currency'),
      overdue: f.overdue,
      updatedAfter: f.updatedAfter === undefined ? undefined : P('updatedAfter'),
      updatedBefore: f.updatedBefore === undefined ? undefined : P('updatedBefore'),
    },
    after: q.after === undefined ? undefined : { value: P('afterValue'), id: P('afterId') },
  };
}

/** The values of pageTemplate's placeholders for `q`. */
function listValues(q: ListQuery): Record<string, unknown> {
  const f = q.filters;
  const term = f.q === undefined ? undefined : termValues(f.q);
  return {
    organizationId: q.organizationId,
    today: q.today,
    take: q.take,
    kind: f.kind,
    projectId: f.projectId,
    qPrefix: term?.prefix,
    qLike: term?.like,
    invoiceDateFrom: f.invoiceDateFrom,
    invoiceDateTo: f.invoiceDateTo,
    state: f.states?.length === 1 ? f.states[0] : undefined,
    states: f.states !== undefined && f.states.length > 1 ? f.states : undefined,
    customerId: f.customerId,
    currency: f.currency,
    updatedAfter: f.updatedAfter,
    updatedBefore: f.updatedBefore,
    afterFlag: q.after ? referenceFlag(q.order, q.after.value) : undefined,
    afterValue: q.after ? (q.sort === 'reference' ? (q.after.value ?? '') : q.after.value) : undefined,
    afterId: q.after?.id,
  };
}

type PagePrepared = { execute(values: Record<string, unknown>): Promise<Awaited<ReturnType<typeof listDocumentsQuery>>> };

/** Shapes are few (sorts × directions × filters present), so their statements are kept per database handle; a bound stops a runaway. */
const SHAPES_KEPT = 2_000;
const preparedPages = oncePerHandle(() => new Map<string, PagePrepared>());

/**
 * The page's statement for `q`'s shape, built by drizzle once and then run with each request's
 * values: building the statement (about 40 conditions, subqueries and columns turned into text
 * and parameters) cost more than running it. The text and parameters are those listDocumentsQuery
 * builds for the same query, so the plans are the same.
 */
function preparedPage(db: Database, q: ListQuery): PagePrepared {
  const shapes = preparedPages(db);
  const key = shapeKey(q);
  let prepared = shapes.get(key);
  if (!prepared) {
    prepared = withCompiledRowMapping(listDocumentsQuery(db, pageTemplate(q)).prepare('receivables_list')) as unknown as PagePrepared;
    if (shapes.size < SHAPES_KEPT) shapes.set(key, prepared);
  }
  return prepared;
}

/** One page of document headers (limit + 1 rows), with the project, the group flag and the attachments in the same statement. */
export async function listDocuments(db: Database, q: ListQuery) {
  const rows = await executePrepared(db, preparedPage(db, q), listValues(q));
  // The row's own header object, completed (a copy of its 45 fields per row would be garbage at once).
  return rows.map((r) =>
    Object.assign(r.doc, {
      sortValue: r.sortValue,
      projectCode: r.projectCode,
      projectName: r.projectName,
      isGroupTransaction: Boolean(r.isGroupTransaction),
      attachmentIds: decodeAttachmentIds(r.attachmentIds),
    }),
  );
}


/** Issued documents in an invoice-date range, counted up to `cap` (an index range scan of at most `cap` entries). */
export async function countRangeUpTo(db: Database, q: { organizationId: string; from?: string; to?: string; cap: number }): Promise<number> {
  const rows = await queryRows<{ n: number | string }>(db, sql`select count(*)::int as n from (
    select 1 from ${d} where ${d.organizationId} = ${q.organizationId}
      ${q.from !== undefined ? sql`and ${d.invoiceDate} >= ${q.from}::date` : sql``}
      ${q.to !== undefined ? sql`and ${d.invoiceDate} <= ${q.to}::date` : sql``}
    limit ${q.cap}) r`);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The horizon of an updated_after page: the start of the oldest transaction of a client running in
 * this database now (this one included), read before the page's statement. A document's updated_at
 * is never before the start of the transaction that changed it (migration document-list-filters), so every row
 * changed before the horizon was written by a transaction that has ended, and the page, whose
 * snapshot is taken after this read, sees all of them. The embedded database has one connection.
 */
export async function updatedHorizon(db: Database): Promise<string> {
  const rows = await queryRows<{ h: string }>(
    db,
    sql`select coalesce(min(xact_start), now())::text as h from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend' and xact_start is not null`,
  );
  return rows[0]!.h;
}
