/**
 * The derived fields of a claim (total, original currency, merchant, categories, projects) and the
 * possible-duplicate signal of its lines, computed from lines the caller has read. Pure: no
 * database, no clock; it never refuses anything (a duplicate is a signal, never a refusal).
 */
import { Dec, formatAmount } from '../../lib/money';
import type { ClaimAnswer } from '../../contract/expenses/claims';

// lib/money's decimal: 40 significant digits, ties rounded half away from zero.
const Money = Dec;
type Money = InstanceType<typeof Dec>;

/** One line of an expense claim, as needed to derive the claim's fields. */
export type ClaimLineInput = {
  line_no: number;
  withdrawn: boolean;
  /** ISO 4217 code of `amount`. */
  currency: string;
  /** Decimal string in `currency`. */
  amount: string;
  /** Decimal string in the organization's base currency. */
  base_amount: string;
  category_id: string;
  supplier_name: string | null;
  shares: { analytic_account_id: string; percentage: string }[];
};

export type DeriveClaimContext = {
  /** ISO 4217 code of the organization's base currency (e.g. "MYR"); amounts are formatted with lib/money. */
  baseCurrency: string;
  /**
   * Analytic accounts on the project axis only: analytic_account_id -> name.
   * Shares naming accounts not in this map (other axes) are ignored.
   */
  projectNames: ReadonlyMap<string, string>;
};

/** The claim answer's fields this module derives (their shape is the answer's schema). */
export type DerivedClaimFields = Pick<
  ClaimAnswer['claim'],
  'total' | 'original_currency' | 'original_total' | 'multiple_currencies' | 'merchant' | 'category_ids' | 'project_names'
>;

/** Plain code-unit comparison: deterministic, independent of the host locale. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortByLineNo<T extends { line_no: number }>(lines: readonly T[]): T[] {
  // Array.prototype.sort is stable, so equal line_no keep their arrival order.
  return [...lines].sort((a, b) => a.line_no - b.line_no);
}

function sum(values: Iterable<string>): Money {
  let total = new Money(0);
  for (const v of values) total = total.plus(new Money(v));
  return total;
}

/**
 * Computes the claim's derived fields from its lines.
 * Only active (non-withdrawn) lines count for any field. Lines may arrive in
 * any order; they are considered by line_no.
 */
export function deriveClaim(lines: readonly ClaimLineInput[], ctx: DeriveClaimContext): DerivedClaimFields {
  const active = sortByLineNo(lines).filter((l) => !l.withdrawn);

  const total = formatAmount(sum(active.map((l) => l.base_amount)), ctx.baseCurrency);

  const currencies = new Set(active.map((l) => l.currency));
  const multiple_currencies = currencies.size > 1;

  let original_currency: string | null = null;
  let original_total: string | null = null;
  if (currencies.size === 1) {
    const [only] = currencies;
    if (only !== undefined && only !== ctx.baseCurrency) {
      original_currency = only;
      original_total = formatAmount(sum(active.map((l) => l.amount)), only);
    }
  }

  // Supplier as stored; a blank (empty or whitespace-only) supplier does not name one.
  const merchant = active.find((l) => l.supplier_name !== null && l.supplier_name.trim() !== '')?.supplier_name ?? null;

  const category_ids: string[] = [];
  const seenCategories = new Set<string>();
  for (const l of active) {
    if (!seenCategories.has(l.category_id)) {
      seenCategories.add(l.category_id);
      category_ids.push(l.category_id);
    }
  }

  // Distinct project accounts (deduplicated by account), in order of first line;
  // within one line by name (then account id, so the order is total).
  const project_names: string[] = [];
  const seenAccounts = new Set<string>();
  for (const l of active) {
    const named: { id: string; name: string }[] = [];
    for (const share of l.shares) {
      const name = ctx.projectNames.get(share.analytic_account_id);
      if (name !== undefined && !named.some((n) => n.id === share.analytic_account_id)) {
        named.push({ id: share.analytic_account_id, name });
      }
    }
    named.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.id, b.id));
    for (const n of named) {
      if (!seenAccounts.has(n.id)) {
        seenAccounts.add(n.id);
        project_names.push(n.name);
      }
    }
  }

  return { total, original_currency, original_total, multiple_currencies, merchant, category_ids, project_names };
}

// ---------------------------------------------------------------------------
// Possible duplicates
// ---------------------------------------------------------------------------

/** SHA-256 hashes of the documents supporting one line of the claim being answered. */
export type LineDocumentHashes = {
  line_no: number;
  sha256s: readonly string[];
};

/** A document hash supporting a line of some (other) claim. */
export type OtherClaimHashRow = {
  sha256: string;
  claim_id: string;
  claim_reference: string;
  /** Semantic of the claim's state: draft, pending, committed, payout, rejected, cancelled, ... */
  claim_state_semantic: string;
  /** Filing order; a Date or an ISO 8601 timestamp string. */
  claim_created_at: Date | string;
  /** The supported line is not withdrawn. */
  line_active: boolean;
  /** The caller may read that claim (otherwise its reference is not disclosed). */
  caller_may_read: boolean;
};

export type LineDuplicateInfo = Pick<ClaimAnswer['lines'][number], 'possible_duplicate' | 'duplicate_claim_references'>;

/** Claims in these semantics never make another claim's line a possible duplicate. */
const NON_DUPLICATE_SEMANTICS: ReadonlySet<string> = new Set(['draft', 'rejected', 'cancelled']);

function normalizeSha256(hash: string): string {
  return hash.trim().toLowerCase();
}

function timeOf(value: Date | string, claimId: string): number {
  const ms = (value instanceof Date ? value : new Date(value)).getTime();
  if (Number.isNaN(ms)) throw new RangeError(`claim ${claimId} has an invalid claim_created_at`);
  return ms;
}

/**
 * For each line of claim `currentClaimId`, tells whether one of its documents has
 * the same SHA-256 (compared case-insensitively) as a document supporting an
 * active line of another claim that has left draft and is not rejected or
 * cancelled. duplicate_claim_references lists the matching claims the caller
 * may read, distinct, in filing order (created_at, then reference); it may be
 * empty while possible_duplicate is true.
 *
 * Returns a map keyed by line_no with an entry for every line passed in.
 */
export function possibleDuplicates(
  lines: readonly LineDocumentHashes[],
  otherRows: readonly OtherClaimHashRow[],
  currentClaimId: string,
): Map<number, LineDuplicateInfo> {
  type Match = { claimId: string; reference: string; createdAt: number; readable: boolean };
  // sha256 -> claim_id -> match
  const bySha = new Map<string, Map<string, Match>>();
  for (const row of otherRows) {
    if (row.claim_id === currentClaimId) continue;
    if (!row.line_active) continue;
    if (NON_DUPLICATE_SEMANTICS.has(row.claim_state_semantic)) continue;
    const sha = normalizeSha256(row.sha256);
    let claims = bySha.get(sha);
    if (claims === undefined) {
      claims = new Map();
      bySha.set(sha, claims);
    }
    const existing = claims.get(row.claim_id);
    if (existing === undefined) {
      claims.set(row.claim_id, {
        claimId: row.claim_id,
        reference: row.claim_reference,
        createdAt: timeOf(row.claim_created_at, row.claim_id),
        readable: row.caller_may_read,
      });
    } else if (row.caller_may_read) {
      existing.readable = true;
    }
  }

  // Group hashes by line (a line_no passed twice has its hashes combined).
  const hashesByLine = new Map<number, string[]>();
  for (const line of lines) {
    const hashes = hashesByLine.get(line.line_no) ?? [];
    hashes.push(...line.sha256s);
    hashesByLine.set(line.line_no, hashes);
  }

  const result = new Map<number, LineDuplicateInfo>();
  for (const [lineNo, hashes] of hashesByLine) {
    const matches = new Map<string, Match>();
    for (const hash of hashes) {
      const claims = bySha.get(normalizeSha256(hash));
      if (claims === undefined) continue;
      for (const m of claims.values()) {
        const prev = matches.get(m.claimId);
        if (prev === undefined) matches.set(m.claimId, { ...m });
        else if (m.readable) prev.readable = true;
      }
    }
    const readable = [...matches.values()]
      .filter((m) => m.readable)
      .sort((a, b) => a.createdAt - b.createdAt || compareStrings(a.reference, b.reference));
    const duplicate_claim_references: string[] = [];
    for (const m of readable) {
      if (!duplicate_claim_references.includes(m.reference)) duplicate_claim_references.push(m.reference);
    }
    result.set(lineNo, { possible_duplicate: matches.size > 0, duplicate_claim_references });
  }
  return result;
}
