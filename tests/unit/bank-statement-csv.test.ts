import { describe, expect, it } from 'vitest';
import { PRESET_MAPPINGS } from '../../src/domain/bank-statements';
import { parseCsv, parseStatementAmount, parseStatementDate, readStatement } from '../../src/services/bank-statements/read-csv';

/** Reading bank CSV exports: the amount and date formats Malaysian banks print, quoting, the heading row. */
describe('bank statement CSV', () => {
  it('reads amounts as signed decimal strings', () => {
    const cases: [string, string | undefined][] = [
      ['1,234.56', '1234.56'],
      ['1,234.56 CR', '1234.56'],
      ['1,234.56 DR', '-1234.56'],
      ['1,234.56DR', '-1234.56'],
      ['(1,234.56)', '-1234.56'],
      ['-1234.56', '-1234.56'],
      ['1234.56-', '-1234.56'],
      ['RM 1,234.56', '1234.56'],
      ['-RM1,234.56', '-1234.56'],
      ['0.10', '0.1'],
      ['', ''],
      ['-', ''],
      ['12,34.56', undefined],
      ['1.2.3', undefined],
      ['abc', undefined],
      ['1,234.567891', undefined],
    ];
    for (const [cell, want] of cases) expect(parseStatementAmount(cell), cell).toBe(want);
  });

  it('reads dates in each format and refuses days that do not exist', () => {
    expect(parseStatementDate('05/03/2025', 'DD/MM/YYYY')).toBe('2025-03-05');
    expect(parseStatementDate('5-3-2025', 'DD-MM-YYYY')).toBe('2025-03-05');
    expect(parseStatementDate('05.03.2025', 'DD.MM.YYYY')).toBe('2025-03-05');
    expect(parseStatementDate('05/03/25', 'DD/MM/YY')).toBe('2025-03-05');
    expect(parseStatementDate('05 Mar 2025', 'DD MMM YYYY')).toBe('2025-03-05');
    expect(parseStatementDate('05-MAR-2025', 'DD-MMM-YYYY')).toBe('2025-03-05');
    expect(parseStatementDate('2025-03-05', 'YYYY-MM-DD')).toBe('2025-03-05');
    expect(parseStatementDate('29/02/2024', 'DD/MM/YYYY')).toBe('2024-02-29');
    expect(parseStatementDate('29/02/2025', 'DD/MM/YYYY')).toBeUndefined();
    expect(parseStatementDate('2025-03-05', 'DD/MM/YYYY')).toBeUndefined();
    expect(parseStatementDate('05 Mac 2025', 'DD MMM YYYY')).toBeUndefined();
  });

  it('splits quoted cells with commas, doubled quotes and line breaks', () => {
    expect(parseCsv('\ufeffa,"b, c","say ""hi"""\r\n"x\ny",2,\n\n')).toEqual([
      ['a', 'b, c', 'say "hi"'],
      ['x\ny', '2', ''],
    ]);
  });

  it('finds the heading row below account details and skips a footer', () => {
    const csv = [
      'Account Statement',
      'Account No.,8001234567',
      'Tran Date,Description,Payment Details,Doc Ref No.,Tran Amt.,Tran Type,Balance',
      '01/03/2025,IBG CREDIT,INV-1,REF1,"1,000.00",CR,"5,000.00"',
      '02/03/2025,CHARGES,,,"2.50",DR,"4,997.50"',
      'Total,,,,,,',
    ].join('\n');
    expect(readStatement(csv, PRESET_MAPPINGS.cimb_bizchannel)).toEqual([
      { row: 4, date: '2025-03-01', amount: '1000', description: 'IBG CREDIT INV-1', reference: 'REF1', balance: '5000' },
      { row: 5, date: '2025-03-02', amount: '-2.5', description: 'CHARGES', reference: '', balance: '4997.5' },
    ]);
  });
});
