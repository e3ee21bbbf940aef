/**
 * What each analytic account carries of a claim (docs/design.md §17): per axis, the active lines' base
 * amounts times their share percentages, rounded by largest remainder so the accounts of one axis add
 * up exactly to what the axis carries. Pure.
 */
import { Dec, minorUnits } from '../../../lib/money';

export interface AmountLine {
  base_amount: string;
  shares: { analytic_account_id: string; axis_id: string; percentage: string; account_code: string; account_name: string }[];
}

export interface AccountAmount {
  analytic_account_id: string;
  axis_id: string;
  account_code: string;
  account_name: string;
  /** In minor units of the base currency (integer). */
  minor: number;
}

/**
 * Per analytic account, in the order the accounts first appear on the lines (line order, then share
 * order). Each axis's accounts add up to the sum of the base amounts of the lines allocated on it.
 */
export function accountAmounts(lines: AmountLine[], currency: string): AccountAmount[] {
  const scale = new Dec(10).pow(minorUnits(currency));
  const exact = new Map<string, { entry: AccountAmount; value: InstanceType<typeof Dec> }>();
  const axisTotals = new Map<string, InstanceType<typeof Dec>>();
  for (const line of lines) {
    const axesOfLine = new Set<string>();
    for (const s of line.shares) {
      const part = new Dec(line.base_amount).times(s.percentage).div(100).times(scale);
      const e = exact.get(s.analytic_account_id) ?? {
        entry: { analytic_account_id: s.analytic_account_id, axis_id: s.axis_id, account_code: s.account_code, account_name: s.account_name, minor: 0 },
        value: new Dec(0),
      };
      e.value = e.value.plus(part);
      exact.set(s.analytic_account_id, e);
      axesOfLine.add(s.axis_id);
    }
    for (const axis of axesOfLine) axisTotals.set(axis, (axisTotals.get(axis) ?? new Dec(0)).plus(new Dec(line.base_amount).times(scale)));
  }
  // Largest remainder per axis: floor every account, then give the sen left over to the largest remainders.
  for (const [axis, total] of axisTotals) {
    const entries = [...exact.values()].filter((e) => e.entry.axis_id === axis);
    let given = new Dec(0);
    for (const e of entries) {
      e.entry.minor = e.value.floor().toNumber();
      given = given.plus(e.entry.minor);
    }
    let left = total.toDecimalPlaces(0, Dec.ROUND_HALF_UP).minus(given).toNumber();
    const byRemainder = [...entries].sort((a, b) => b.value.minus(b.value.floor()).comparedTo(a.value.minus(a.value.floor())));
    for (let i = 0; left > 0 && byRemainder.length > 0; i = (i + 1) % byRemainder.length, left -= 1) byRemainder[i]!.entry.minor += 1;
  }
  return [...exact.values()].map((e) => e.entry);
}

/** Minor units back to a decimal string of the currency. */
export function fromMinor(minor: number, currency: string): string {
  return new Dec(minor).div(new Dec(10).pow(minorUnits(currency))).toFixed(minorUnits(currency));
}

/**
 * Required axes the lines leave (partly) unallocated: an axis is unallocated when some active line
 * carries no share on it (shares of one axis always sum to 100, so a line is all or nothing).
 */
export function unallocatedAxes(lines: AmountLine[], requiredAxisIds: string[]): string[] {
  return requiredAxisIds.filter((axis) => lines.some((l) => !l.shares.some((s) => s.axis_id === axis)));
}
