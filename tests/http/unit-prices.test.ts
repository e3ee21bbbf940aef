/**
 * Unit prices up to 6 decimal places whatever the currency (docs/design.md §4): the price is kept as
 * given, the line's net amount is what gets rounded to the currency. Answered with at least the
 * currency's places and at most 6 (trailing zeros beyond the currency's places trimmed).
 */
import { describe, expect, it } from 'vitest';
import { formatUnitPrice } from '../../src/lib/money';
import { createInvoiceWorld } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';

describe('unit prices up to 6 decimal places', () => {
  it('fuel at RM 2.055 a litre × 40 gives a net of 82.20, the price answered as given', async () => {
    const w = await createInvoiceWorld(t.db);
    const res = await post(URL, w.body({ lines: [w.line({ quantity: '40', unit_price: '2.055', discount_amount: '0', tax_code_id: w.ref.na.id })] }), w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    expect(d.lines[0]).toMatchObject({ unit_price: '2.055', net_amount: '82.20', tax_amount: '0.00', net_base: '82.20' });
    expect([d.net_total, d.gross_amount]).toEqual(['82.20', '82.20']);
    const again = (await get(`${URL}/${d.id}`, w.org.owner.apiKey)).json();
    expect(again.lines[0].unit_price).toBe('2.055');
  });

  it('6 places are kept; the product is rounded half up to the sen', async () => {
    const w = await createInvoiceWorld(t.db);
    // 3 × 0.218005 = 0.654015 → 0.65; 7 × 0.123456 = 0.864192 → 0.86; 1 × 120.5 answered "120.50"
    const res = await post(
      URL,
      w.body({
        lines: [
          w.line({ quantity: '3', unit_price: '0.218005', discount_amount: '0', tax_code_id: w.ref.na.id }),
          w.line({ quantity: '7', unit_price: '0.123456', discount_amount: '0', tax_code_id: w.ref.na.id }),
          w.line({ quantity: '1', unit_price: '120.5', discount_amount: '0', tax_code_id: w.ref.na.id }),
          w.line({ quantity: '10', unit_price: '0.2180', discount_amount: '0', tax_code_id: w.ref.na.id }),
        ],
      }),
      w.org.owner.apiKey,
    );
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    expect(d.lines.map((l: any) => [l.unit_price, l.net_amount])).toEqual([
      ['0.218005', '0.65'],
      ['0.123456', '0.86'],
      ['120.50', '120.50'],
      ['0.218', '2.18'],
    ]);
    expect(d.net_total).toBe('124.19');
  });

  it('more than 6 places is 422 at the line\'s unit_price', async () => {
    const w = await createInvoiceWorld(t.db);
    const p = expectProblem(await post(URL, w.body({ lines: [w.line({ quantity: '40', unit_price: '2.0555555' })] }), w.org.owner.apiKey), 422, 'validation');
    expect(p.errors).toEqual([{ pointer: '/lines/0/unit_price', detail: 'must have at most 6 decimal places' }]);
  });

  it('discounts stay at the currency\'s places', async () => {
    const w = await createInvoiceWorld(t.db);
    const p = expectProblem(await post(URL, w.body({ lines: [w.line({ quantity: '40', unit_price: '2.055', discount_amount: '0.005' })] }), w.org.owner.apiKey), 422, 'validation');
    expect(p.errors).toEqual([{ pointer: '/lines/0/discount_amount', detail: 'must have at most 2 decimal places for MYR' }]);
  });

  it('JPY: 3 × 1.5 = 4.5 rounds half up to 5', async () => {
    const w = await createInvoiceWorld(t.db);
    const res = await post(
      URL,
      w.body({ currency: 'JPY', fx_rate: '0.0312', lines: [w.line({ quantity: '3', unit_price: '1.5', discount_amount: '0', tax_code_id: w.ref.na.id })] }),
      w.org.owner.apiKey,
    );
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    // net_base = 5 × 0.0312 = 0.156 → 0.16
    expect(d.lines[0]).toMatchObject({ unit_price: '1.5', net_amount: '5', net_base: '0.16' });
    expect([d.net_total, d.gross_amount, d.gross_base]).toEqual(['5', '5', '0.16']);
  });

  it('formats a unit price with at least the currency\'s places and at most 6', () => {
    expect(formatUnitPrice('2.055000', 'MYR')).toBe('2.055');
    expect(formatUnitPrice('120.500000', 'MYR')).toBe('120.50');
    expect(formatUnitPrice('7', 'MYR')).toBe('7.00');
    expect(formatUnitPrice('1999.000000', 'JPY')).toBe('1999');
    expect(formatUnitPrice('1.500000', 'JPY')).toBe('1.5');
    expect(formatUnitPrice('0.123456', 'KWD')).toBe('0.123456');
    expect(formatUnitPrice('1.1', 'KWD')).toBe('1.100');
  });
});
