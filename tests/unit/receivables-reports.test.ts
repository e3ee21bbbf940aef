import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/lib/money';
import { ageingCsv, ageingView, countback } from '../../src/services/receivables/reports';

const periods = (...sales: string[]) => sales.map((s, i) => ({ from: `p${i}`, to: `p${i}`, sales: new Dec(s) }));

describe('DSO by countback', () => {
  it('the README example: 30 + 30 + 30 × 2025.00 / 8100.00 = 67.50 days', () => {
    expect(countback(new Dec('18225.00'), periods('10800.00', '5400.00', '8100.00'))).toEqual({
      days: '67.50',
      periods: [
        { from: 'p0', to: 'p0', sales_base: '10800.00', days_counted: '30.00' },
        { from: 'p1', to: 'p1', sales_base: '5400.00', days_counted: '30.00' },
        { from: 'p2', to: 'p2', sales_base: '8100.00', days_counted: '7.50' },
      ],
    });
  });

  it('receivables used up in the first period count its fraction; nothing owed is 0.00 days', () => {
    expect(countback(new Dec('2500.00'), periods('10000.00', '5000.00', '5000.00')).days).toBe('7.50');
    expect(countback(new Dec('0'), periods('10000.00', '0', '0')).days).toBe('0.00');
    expect(countback(new Dec('-50.00'), periods('10000.00', '0', '0')).days).toBe('0.00');
  });

  it('more owed than 90 days sold: the rest at the average daily sales of the 90 days; no sales is null', () => {
    // 9000.00 sold in 90 days = 100.00 a day; 12000.00 owed: 90 days, then 3000.00 / 100.00 = 30 days.
    expect(countback(new Dec('12000.00'), periods('3000.00', '3000.00', '3000.00')).days).toBe('120.00');
    expect(countback(new Dec('100.00'), periods('0', '0', '0')).days).toBeNull();
    // A period with net credits (more credit notes than sales) counts nothing.
    expect(countback(new Dec('1000.00'), periods('-200.00', '1000.00', '0')).days).toBe('60.00');
  });
});

describe('ageing CSV', () => {
  it('quotes per RFC 4180 and never lets a spreadsheet run a name as a formula', () => {
    const report = ageingView('MYR', '2026-03-31', [30, 60, 90, 120], [
      { customer_id: 'c1', code: 'C-1', legal_name: '=HYPERLINK("x")', currency: 'MYR', is_group_company: false, amounts: [null, null, '10.5', null, null, null],
        line_amount: '10.5', line_base: '10.5', bucket_base: ['-4.47', null, '10.5', null, null, null], total_base: '6.03' },
      { customer_id: 'c2', code: 'C-2', legal_name: 'Tan, Lim & Co', currency: 'USD', is_group_company: true, amounts: ['-1', null, null, null, null, null],
        line_amount: '-1', line_base: '-4.47', bucket_base: ['-4.47', null, '10.5', null, null, null], total_base: '6.03' },
    ]);
    expect(ageingCsv(report).split('\r\n')).toEqual([
      'customer_code,legal_name,is_group_company,currency,current,days_1_30,days_31_60,days_61_90,days_91_120,over_120,total,total_base,base_currency',
      `C-1,"'=HYPERLINK(""x"")",false,MYR,0.00,0.00,10.50,0.00,0.00,0.00,10.50,10.50,MYR`,
      'C-2,"Tan, Lim & Co",true,USD,-1.00,0.00,0.00,0.00,0.00,0.00,-1.00,-4.47,MYR',
      'TOTAL,,,,,,,,,,,6.03,MYR',
      '',
    ]);
  });

  it('edges the organization set name the buckets and the columns', () => {
    const report = ageingView('MYR', '2026-03-31', [14, 45], [
      { customer_id: 'c1', code: 'C-1', legal_name: 'Kedai Ah Seng', currency: 'MYR', is_group_company: false, amounts: [null, null, null, '7.25'],
        line_amount: '7.25', line_base: '7.25', bucket_base: [null, null, null, '7.25'], total_base: '7.25' },
    ]);
    expect(report.bucket_keys).toEqual(['current', 'days_1_14', 'days_15_45', 'over_45']);
    expect(report.totals_base).toEqual({ current: '0.00', days_1_14: '0.00', days_15_45: '0.00', over_45: '7.25' });
    expect(ageingCsv(report).split('\r\n')[0]).toBe('customer_code,legal_name,is_group_company,currency,current,days_1_14,days_15_45,over_45,total,total_base,base_currency');
  });
});
