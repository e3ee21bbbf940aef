/**
 * The shares rule of a line, one for invoice lines and claim lines alike (docs/design.md §17: "shares
 * follow the invoice rules"), so the two cannot drift. Pure: the caller reads the analytic accounts
 * the shares name (one query for all its lines) and gives them here. Never throws; it adds refusals.
 */
import type Decimal from 'decimal.js';
import { Dec } from '../../lib/money';
import { rateInRange, type Refusals } from '../../lib/refusals';

export interface ShareInput {
  analytic_account_id: string;
  percentage: string;
}

/** An analytic account as the shares rule needs it (findAnalyticAccountsByIds answers these). */
export interface ShareAccount {
  id: string;
  axisId: string;
  active: boolean;
  isProjectAxis: boolean;
}

export interface CheckedShare {
  analyticAccountId: string;
  axisId: string;
  percentage: string;
  isProjectAxis: boolean;
}

export const MAX_SHARES_PER_LINE = 50;

/**
 * Active analytic accounts of the organization, none twice on the line, each percentage greater than
 * 0 and at most 100 with up to 10 places, and every axis the line names summing to exactly 100.
 * `at` is the pointer of the shares array (`/lines/0/shares`, `/shares`). Answers the shares that
 * name a known account, and whether the line's shares were all fine.
 */
export function checkShares(r: Refusals, shares: readonly ShareInput[], accounts: readonly ShareAccount[], at: string): { ok: boolean; shares: CheckedShare[] } {
  let ok = r.check(shares.length <= MAX_SHARES_PER_LINE, at, `at most ${MAX_SHARES_PER_LINE} shares per line`);
  const fail = (pointer: string, detail: string) => {
    r.add(pointer, detail);
    ok = false;
  };
  const checked: CheckedShare[] = [];
  const perAxis = new Map<string, Decimal>();
  for (const [j, share] of shares.entries()) {
    const accountAt = `${at}/${j}/analytic_account_id`;
    const account = accounts.find((a) => a.id === share.analytic_account_id);
    if (!account) {
      fail(accountAt, 'is not an active analytic account of this organization');
      continue;
    }
    if (!account.active) fail(accountAt, 'the analytic account is inactive');
    if (checked.some((s) => s.analyticAccountId === account.id)) fail(accountAt, 'the analytic account appears twice on the line');
    if (!rateInRange(r, share.percentage, `${at}/${j}/percentage`, { min: '0', minExclusive: true, max: '100' })) ok = false;
    perAxis.set(account.axisId, (perAxis.get(account.axisId) ?? new Dec(0)).plus(share.percentage));
    checked.push({ analyticAccountId: account.id, axisId: account.axisId, percentage: share.percentage, isProjectAxis: account.isProjectAxis });
  }
  for (const [axisId, sum] of perAxis) {
    if (!sum.eq(100)) fail(at, `the shares on axis ${axisId} sum to ${sum.toFixed()}, not 100`);
  }
  return { ok, shares: checked };
}
