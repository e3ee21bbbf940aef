import { describe, expect, it } from 'vitest';
import { approvalGrantContract } from '../../src/contract/settings/approval-grants';
import { customFieldContract } from '../../src/contract/settings/custom-fields';
import { mileageRateContract } from '../../src/contract/settings/mileage-rates';
import { orgUnitContract } from '../../src/contract/settings/org-units';
import { rawRecord, shapeOf, toInput } from '../../web/src/routes/owner/reference/schema-fields';

/**
 * The reference data screen's forms are built from the procedures' own input schemas: each field's
 * kind read from the schema, what the person typed turned into the procedure's input (blank left
 * out, or null where the field may be cleared; on a change only what differs), which the same schema
 * then accepts or refuses before anything is sent.
 */
describe('set-up forms from the procedures’ input schemas', () => {
  it('reads each field’s kind, choices and whether it may be left out or cleared', () => {
    const fields = shapeOf(approvalGrantContract.create);
    const by = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(by.name).toMatchObject({ kind: 'text', optional: false, nullable: false });
    expect(by.kind).toMatchObject({ kind: 'enum', options: ['superior', 'account_approver', 'default'] });
    expect(by.axis_id).toMatchObject({ kind: 'id', optional: true, nullable: true });
    expect(by.max_levels).toMatchObject({ kind: 'integer', optional: true, nullable: true });
    expect(by.bands?.kind).toBe('rows');
    expect(by.bands?.rows?.map((r) => [r.name, r.kind, r.nullable])).toEqual([
      ['level', 'integer', false],
      ['min_amount', 'text', false],
      ['max_amount', 'text', true],
    ]);
    expect(Object.fromEntries(shapeOf(customFieldContract.create).map((f) => [f.name, f.kind]))).toMatchObject({ options: 'list', required: 'boolean', record_type: 'enum' });
    expect(shapeOf(mileageRateContract.create).find((f) => f.name === 'valid_from')?.kind).toBe('date');
  });

  it('a create sends what was typed: blanks left out or null, integers as numbers, rows and lists converted; the schema accepts it', () => {
    const fields = shapeOf(approvalGrantContract.create);
    const raw = { ...rawRecord(undefined, fields), name: 'Finance', kind: 'default', step: 'finance', max_levels: '', axis_id: '', bands: [{ level: '2', min_amount: '0', max_amount: '' }] };
    const input = toInput(raw, fields);
    expect(input).toEqual({ name: 'Finance', kind: 'default', step: 'finance', axis_id: null, holder_position_id: null, holder_member_id: null, max_levels: null, fallback_grant_id: null, bands: [{ level: 2, min_amount: '0', max_amount: null }] });
    expect(approvalGrantContract.create.safeParse(input).success).toBe(true);

    const cf = shapeOf(customFieldContract.create);
    const typed = toInput({ ...rawRecord(undefined, cf), record_type: 'customer', key: 'region', label: 'Region', type: 'select', options: ' North\n\nSouth \n', required: true }, cf);
    expect(typed).toEqual({ record_type: 'customer', key: 'region', label: 'Region', type: 'select', options: ['North', 'South'], required: true });
  });

  it('a blank required field stays blank for the schema to refuse on that field', () => {
    const fields = shapeOf(orgUnitContract.create);
    const result = orgUnitContract.create.safeParse(toInput({ code: '', name: 'Sales', parent_id: '' }, fields));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['code']);
  });

  it('a change sends the id and only what differs from the record as read; clearing a field sends null', () => {
    const fields = shapeOf(orgUnitContract.update).filter((f) => f.name !== 'id');
    const record = { id: '5f0c1b9e-0000-4000-8000-000000000001', code: 'SAL', name: 'Sales', parent_id: '5f0c1b9e-0000-4000-8000-000000000002', revision: 3 };
    const before = { ...rawRecord(record, fields), id: record.id };
    expect(toInput({ ...rawRecord(record, fields) }, fields, before)).toEqual({ id: record.id });
    const input = toInput({ ...rawRecord(record, fields), name: 'Sales and marketing', parent_id: '' }, fields, before);
    expect(input).toEqual({ id: record.id, name: 'Sales and marketing', parent_id: null });
    expect(orgUnitContract.update.safeParse(input).success).toBe(true);
  });
});
