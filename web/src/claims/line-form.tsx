import { useState } from 'react';
import { useFieldArray, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { uploadDocument, UploadProblem, type AddLineInput, type ClaimAnswer, type ClaimLine, type LineReference, type UpdateLineInput } from '../api/claims';
import { isStale, problemOf } from '../api/problem';
import { trpc, write } from '../api/trpc';
import { dateIn } from '../format/date';
import { useSchemaForm, type SchemaForm } from '../forms/use-schema-form';
import { useI18n, type MessageKey } from '../i18n';
import { Alert } from '../ui/Alert';
import { Button } from '../ui/Button';
import { SelectField, TextField } from '../ui/Field';

/**
 * The form of one claim line (add or change), phone first. Every value stays text as typed; the
 * server's rules decide (a 422 lands on the field it names, and what was typed stays). A receipt's
 * photo is re-encoded to a JPEG of at most 2 MB in the browser and uploaded at once; a PDF goes as it
 * is; an e-invoice QR code found in the photo fills the e-invoice UUID (editable).
 */

const LINE_TYPES = ['receipt', 'mileage', 'per_diem', 'advance_offset'] as const;
type LineType = (typeof LINE_TYPES)[number];
const BASES = ['einvoice_employee', 'einvoice_company', 'foreign_supplier', 'relaxation_receipt'] as const;

const text = z.string();
const lineForm = z.object({
  type: z.enum(LINE_TYPES),
  expense_date: text,
  category_id: text,
  description: text,
  currency: text,
  amount: text,
  fx_rate: text,
  fx_rate_reason: text,
  bank_charged_amount: text,
  quantity: text,
  rate_id: text,
  band: text,
  tax_amount: text,
  tax_code_id: text,
  supplier_name: text,
  supplier_tin: text,
  supplier_country: text,
  document_basis: text,
  einvoice_uuid: text,
  relaxation_reason: text,
  shares: z.array(z.object({ analytic_account_id: text, percentage: text })),
});
type LineFormValues = z.infer<typeof lineForm>;
type TextField_ = Exclude<keyof LineFormValues, 'type' | 'shares'>;

/** The fields each type takes (besides date, category, description, shares and documents). */
const FIELDS_OF: Record<LineType, TextField_[]> = {
  receipt: ['currency', 'amount', 'fx_rate', 'fx_rate_reason', 'bank_charged_amount', 'tax_code_id', 'tax_amount', 'supplier_name', 'supplier_tin', 'supplier_country', 'document_basis', 'einvoice_uuid', 'relaxation_reason'],
  mileage: ['quantity', 'rate_id'],
  per_diem: ['quantity', 'rate_id', 'band'],
  advance_offset: ['amount'],
};

export const TYPE_LABEL: Record<LineType, MessageKey> = {
  receipt: 'lineType.receipt',
  mileage: 'lineType.mileage',
  per_diem: 'lineType.per_diem',
  advance_offset: 'lineType.advance_offset',
};

function defaults(claim: ClaimAnswer, reference: LineReference, line: ClaimLine | undefined): LineFormValues {
  if (line) {
    return {
      type: line.type,
      expense_date: line.expense_date,
      category_id: line.category_id,
      description: line.description,
      currency: line.currency,
      amount: line.type === 'receipt' ? line.amount : line.type === 'advance_offset' ? line.amount.replace(/^-/, '') : '',
      fx_rate: line.fx_rate_source === 'override' ? line.fx_rate : '',
      fx_rate_reason: '',
      bank_charged_amount: line.reimbursement_basis === 'bank_charged' ? line.base_amount : '',
      quantity: line.type === 'mileage' || line.type === 'per_diem' ? line.quantity : '',
      rate_id: line.rate_id ?? '',
      band: line.type === 'per_diem' ? (line.band ?? '') : '',
      tax_amount: line.tax_code_id ? '' : line.type === 'receipt' && Number(line.tax_amount) !== 0 ? line.tax_amount : '',
      tax_code_id: line.tax_code_id ?? '',
      supplier_name: line.supplier_name ?? '',
      supplier_tin: line.supplier_tin ?? '',
      supplier_country: '',
      document_basis: line.type === 'receipt' ? line.document_basis : '',
      einvoice_uuid: line.einvoice_uuid ?? '',
      relaxation_reason: line.type === 'receipt' ? (line.relaxation_reason ?? '') : '',
      shares: line.shares.map((s) => ({ analytic_account_id: s.analytic_account_id, percentage: s.percentage })),
    };
  }
  const activeAxes = reference.axes.filter((a) => a.active);
  const required = activeAxes.filter((a) => a.required_on_claims);
  const initialAxes = required.length ? required : activeAxes.filter((a) => a.is_project_axis).slice(0, 1);
  return {
    type: 'receipt',
    expense_date: dateIn(new Date()),
    category_id: '',
    description: '',
    currency: claim.claim.currency,
    amount: '',
    fx_rate: '',
    fx_rate_reason: '',
    bank_charged_amount: '',
    quantity: '',
    rate_id: '',
    band: '',
    tax_amount: '',
    tax_code_id: '',
    supplier_name: '',
    supplier_tin: '',
    supplier_country: '',
    document_basis: '',
    einvoice_uuid: '',
    relaxation_reason: '',
    shares: initialAxes.map(() => ({ analytic_account_id: '', percentage: '100' })),
  };
}

/**
 * The type's own fields of a line as sent: those the form shows (the exchange-rate ones only for a
 * foreign currency, each basis's own field only under it), trimmed, the currency in capitals; an
 * empty one is left out of an add and sent as null on a change (so it is cleared).
 */
function typeFields(v: LineFormValues, foreign: boolean, changing: boolean): Record<string, string | null> {
  const fields: Record<string, string | null> = {};
  for (const name of FIELDS_OF[v.type]) {
    const raw = v[name].trim();
    const applies =
      (name !== 'fx_rate' && name !== 'fx_rate_reason' && name !== 'bank_charged_amount') || foreign
        ? name === 'einvoice_uuid'
          ? v.document_basis.startsWith('einvoice')
          : name === 'relaxation_reason'
            ? v.document_basis === 'relaxation_receipt'
            : name === 'supplier_country'
              ? v.document_basis === 'foreign_supplier'
              : true
        : false;
    const value = applies && raw ? (name === 'currency' ? raw.toUpperCase() : raw) : null;
    if (value !== null || changing) fields[name] = value;
  }
  return fields;
}

interface Attached {
  id: string;
  filename: string;
  size: number;
}

export function LineForm({
  claim,
  reference,
  line,
  onSaved,
  onStale,
  onCancel,
}: {
  claim: ClaimAnswer;
  reference: LineReference;
  line?: ClaimLine;
  onSaved: (answer: ClaimAnswer) => void;
  onStale: () => void;
  onCancel: () => void;
}) {
  const { t, locale } = useI18n();
  const form = useSchemaForm(lineForm, { defaultValues: defaults(claim, reference, line) });
  const values = useWatch({ control: form.control }) as Partial<LineFormValues>;
  const type = (values.type ?? 'receipt') as LineType;
  const base = claim.claim.currency;
  const foreign = type === 'receipt' && !!values.currency && values.currency.trim().toUpperCase() !== base;
  const [documents] = useState<string[]>(() => line?.documents ?? []);
  const [attached, setAttached] = useState<Attached[]>([]);
  const [photo, setPhoto] = useState<PhotoState>({ state: 'idle' });
  const [key, setKey] = useState(() => crypto.randomUUID());
  const err = (name: string) => (form.formState.errors as Record<string, { message?: string } | undefined>)[name]?.message;
  const fieldId = (name: string) => `line-${line?.id ?? 'new'}-${name}`;
  const kit: LineKit = { form, reference, err, fieldId };

  const onPhoto = async (file: File | undefined) => {
    if (!file) return;
    setPhoto({ state: 'working', message: t('photo.preparing') });
    try {
      let blob: Blob = file;
      let filename = file.name || 'receipt';
      let qr: string | undefined;
      if (file.type !== 'application/pdf') {
        const { prepareReceiptImage } = await import('./receipt-image');
        const prepared = await prepareReceiptImage(file);
        blob = prepared.blob;
        filename = prepared.filename;
        if (prepared.pixels) {
          const { readEinvoiceUuid } = await import('./einvoice-qr');
          qr = await readEinvoiceUuid(prepared.pixels).catch(() => undefined);
        }
      }
      setPhoto({ state: 'working', message: t('photo.uploading') });
      const uploaded = await uploadDocument(blob, filename, crypto.randomUUID());
      setAttached((all) => [...all, { id: uploaded.id, filename: uploaded.filename, size: uploaded.size }]);
      if (qr) {
        form.setValue('einvoice_uuid', qr, { shouldDirty: true });
        if (!form.getValues('document_basis')) form.setValue('document_basis', 'einvoice_employee', { shouldDirty: true });
      }
      setPhoto({ state: 'done', message: t('photo.attached', { name: uploaded.filename, size: formatKb(uploaded.size, locale) }), ...(qr ? { qr } : {}) });
    } catch (error) {
      const detail = error instanceof UploadProblem ? (typeof error.problem.detail === 'string' ? error.problem.detail : error.message) : t('photo.failed');
      setPhoto({ state: 'error', message: detail });
    }
  };

  const onSubmit = form.handleSubmit(async (v) => {
    form.clearProblem();
    // Empty share rows are dropped first, so the server's pointers (/shares/1/...) name the rows shown.
    const kept = v.shares.filter((s) => s.analytic_account_id || s.percentage.trim());
    if (kept.length !== v.shares.length) form.setValue('shares', kept);
    const fields = typeFields(v, foreign, line !== undefined);
    const common = {
      expense_date: v.expense_date,
      category_id: v.category_id,
      description: v.description,
      shares: kept.map((s) => ({ analytic_account_id: s.analytic_account_id, percentage: s.percentage.trim() })),
      documents: [...documents, ...attached.map((a) => a.id)],
    };
    try {
      const answer = line
        ? await trpc.expenses.claims.lines.update.mutate({ id: claim.claim.id, line_id: line.id, ...common, ...fields } as UpdateLineInput, write({ revision: claim.claim.revision }))
        : await trpc.expenses.claims.lines.add.mutate({ id: claim.claim.id, type: v.type, ...common, ...fields } as AddLineInput, write({ revision: claim.claim.revision, idempotencyKey: key }));
      onSaved(answer);
    } catch (error) {
      const problem = problemOf(error);
      if (isStale(problem)) {
        setKey(crypto.randomUUID());
        onStale();
        return;
      }
      form.showProblem(error);
    }
  });


  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby={fieldId('title')} className="flex flex-col gap-4 rounded-lg border border-blue-300 bg-white p-4 shadow-sm" data-testid="line-form">
      <h3 id={fieldId('title')} className="text-lg font-semibold">
        {line ? t('line.editTitle', { line: line.line_no }) : t('line.addTitle')}
      </h3>
      {line ? null : (
        <SelectField id={fieldId('type')} label={t('line.type')} error={err('type')} {...form.register('type')}>
          {LINE_TYPES.map((x) => (
            <option key={x} value={x}>
              {t(TYPE_LABEL[x])}
            </option>
          ))}
        </SelectField>
      )}
      {type === 'receipt' ? <ReceiptPhoto fieldId={fieldId} photo={photo} documentCount={documents.length} onFile={(file) => void onPhoto(file)} /> : null}
      <TextField id={fieldId('expense_date')} type="date" label={t('line.expenseDate')} required error={err('expense_date')} {...form.register('expense_date')} />
      <SelectField id={fieldId('category_id')} label={t('line.category')} required error={err('category_id')} {...form.register('category_id')}>
        <option value="">{t('line.choose')}</option>
        {reference.categories
          .filter((c) => c.active || c.id === values.category_id)
          .map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
      </SelectField>
      <TextField id={fieldId('description')} label={t('line.description')} required autoComplete="off" error={err('description')} {...form.register('description')} />

      {type === 'receipt' ? <ReceiptFields kit={kit} values={values} base={base} foreign={foreign} /> : null}

      {type === 'mileage' || type === 'per_diem' ? <RateFields kit={kit} type={type} values={values} /> : null}

      {type === 'advance_offset' ? (
        <TextField id={fieldId('amount')} label={t('line.advanceAmount', { base })} hint={t('line.advanceHint')} inputMode="decimal" required error={err('amount')} {...form.register('amount')} />
      ) : null}

      <SharesFieldset kit={kit} />

      {form.formMessage ? <Alert tone="error">{form.formMessage}</Alert> : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" busy={form.formState.isSubmitting || photo.state === 'working'} data-testid="save-line">
          {line ? t('line.save') : t('line.add')}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t('line.cancel')}
        </Button>
      </div>
    </form>
  );
}

/** What the parts of the line form share: the form, the organization's reference data, a field's error and its element id. */
interface LineKit {
  form: SchemaForm<typeof lineForm>;
  reference: LineReference;
  err: (name: string) => string | undefined;
  fieldId: (name: string) => string;
}

type PhotoState = { state: 'idle' | 'working' | 'done' | 'error'; message?: string; qr?: string };

/** A receipt's photo (the camera on a phone) or file, and what became of the last one chosen. */
function ReceiptPhoto({ fieldId, photo, documentCount, onFile }: { fieldId: (name: string) => string; photo: PhotoState; documentCount: number; onFile: (file: File | undefined) => void }) {
  const { t } = useI18n();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={fieldId('photo')} className="font-medium text-slate-900">
        {t('photo.label')}
      </label>
      <p id={fieldId('photo-hint')} className="text-sm text-slate-600">
        {t('photo.hint')}
      </p>
      <input
        id={fieldId('photo')}
        name="photo"
        type="file"
        accept="image/*"
        capture="environment"
        aria-describedby={`${fieldId('photo-hint')} ${fieldId('photo-status')}`}
        className={FILE_INPUT}
        onChange={(e) => onFile(e.target.files?.[0])}
      />
      <label htmlFor={fieldId('file')} className="mt-2 font-medium text-slate-900">
        {t('photo.fileLabel')}
      </label>
      <input id={fieldId('file')} name="receipt_file" type="file" accept="image/*,application/pdf" aria-describedby={fieldId('photo-status')} className={FILE_INPUT} onChange={(e) => onFile(e.target.files?.[0])} />
      <div id={fieldId('photo-status')} aria-live="polite" data-testid="photo-status">
        {photo.message ? <p className={`text-sm ${photo.state === 'error' ? 'font-medium text-red-700' : 'text-slate-700'}`}>{photo.message}</p> : null}
        {photo.qr ? <p className="text-sm font-medium text-green-800">{t('photo.qrFound', { uuid: photo.qr })}</p> : null}
      </div>
      {documentCount ? <p className="text-sm text-slate-700">{t('line.documentCount', { count: documentCount })}</p> : null}
    </div>
  );
}

/** A receipt's amount (and exchange rate when foreign), tax, supplier and document basis. */
function ReceiptFields({ kit, values, base, foreign }: { kit: LineKit; values: Partial<LineFormValues>; base: string; foreign: boolean }) {
  const { t } = useI18n();
  const { form, reference, err, fieldId } = kit;
  const basis = values.document_basis ?? '';
  return (
    <>
      <div className="grid grid-cols-[6rem_1fr] gap-3">
        <TextField id={fieldId('currency')} label={t('line.currency')} autoCapitalize="characters" maxLength={3} error={err('currency')} {...form.register('currency')} />
        <TextField id={fieldId('amount')} label={t('line.amountGross')} inputMode="decimal" autoComplete="off" required error={err('amount')} {...form.register('amount')} />
      </div>
      {foreign ? (
        <fieldset className="flex flex-col gap-3 rounded-md border border-slate-300 p-3">
          <legend className="px-1 font-medium">{t('line.fxTitle', { base })}</legend>
          <p className="text-sm text-slate-600">{t('line.fxHint')}</p>
          <TextField id={fieldId('fx_rate')} label={t('line.fxRate')} inputMode="decimal" error={err('fx_rate')} {...form.register('fx_rate')} />
          <TextField id={fieldId('fx_rate_reason')} label={t('line.fxRateReason')} error={err('fx_rate_reason')} {...form.register('fx_rate_reason')} />
          <TextField id={fieldId('bank_charged_amount')} label={t('line.bankCharged', { base })} inputMode="decimal" error={err('bank_charged_amount')} {...form.register('bank_charged_amount')} />
        </fieldset>
      ) : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <SelectField id={fieldId('tax_code_id')} label={t('line.taxCode')} error={err('tax_code_id')} {...form.register('tax_code_id')}>
          <option value="">{t('line.noTax')}</option>
          {reference.taxCodes
            .filter((c) => c.active || c.id === values.tax_code_id)
            .map((c) => (
              <option key={c.id} value={c.id}>
                {c.code} — {c.name}
              </option>
            ))}
        </SelectField>
        <TextField id={fieldId('tax_amount')} label={t('line.sstAmount')} hint={t('line.sstHint')} inputMode="decimal" error={err('tax_amount')} {...form.register('tax_amount')} />
      </div>
      <TextField id={fieldId('supplier_name')} label={t('line.supplier')} autoComplete="off" error={err('supplier_name')} {...form.register('supplier_name')} />
      <TextField id={fieldId('supplier_tin')} label={t('line.supplierTin')} autoComplete="off" error={err('supplier_tin')} {...form.register('supplier_tin')} />
      <SelectField id={fieldId('document_basis')} label={t('line.documentBasis')} required error={err('document_basis')} {...form.register('document_basis')}>
        <option value="">{t('line.choose')}</option>
        {BASES.map((b) => (
          <option key={b} value={b}>
            {t(`basis.${b}`)}
          </option>
        ))}
      </SelectField>
      {basis.startsWith('einvoice') ? (
        <TextField id={fieldId('einvoice_uuid')} label={t('line.einvoiceUuid')} hint={t('line.einvoiceUuidHint')} autoComplete="off" autoCapitalize="characters" error={err('einvoice_uuid')} {...form.register('einvoice_uuid')} />
      ) : null}
      {basis === 'foreign_supplier' ? (
        <TextField id={fieldId('supplier_country')} label={t('line.supplierCountry')} hint={t('line.supplierCountryHint')} maxLength={2} error={err('supplier_country')} {...form.register('supplier_country')} />
      ) : null}
      {basis === 'relaxation_receipt' ? (
        <TextField id={fieldId('relaxation_reason')} label={t('line.relaxationReason')} error={err('relaxation_reason')} {...form.register('relaxation_reason')} />
      ) : null}
    </>
  );
}

const ratesOf = (reference: LineReference, type: LineType) => (type === 'mileage' ? reference.mileageRates : reference.perDiemRates);

/** Mileage and per diem: the rate, the band of a per diem, the kilometres or days. */
function RateFields({ kit, type, values }: { kit: LineKit; type: LineType; values: Partial<LineFormValues> }) {
  const { t } = useI18n();
  const { form, reference, err, fieldId } = kit;
  return (
    <>
      <SelectField id={fieldId('rate_id')} label={t('line.rate')} required error={err('rate_id')} {...form.register('rate_id')}>
        <option value="">{t('line.choose')}</option>
        {ratesOf(reference, type)
          .filter((r) => r.active || r.id === values.rate_id)
          .map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
      </SelectField>
      {type === 'per_diem' ? (
        <SelectField id={fieldId('band')} label={t('line.band')} required error={err('band')} {...form.register('band')}>
          <option value="">{t('line.choose')}</option>
          {(reference.perDiemRates.find((r) => r.id === values.rate_id)?.bands ?? []).map((b) => (
            <option key={b.band} value={b.band}>
              {b.band}
            </option>
          ))}
        </SelectField>
      ) : null}
      <TextField id={fieldId('quantity')} label={type === 'mileage' ? t('line.km') : t('line.days')} inputMode="decimal" required error={err('quantity')} {...form.register('quantity')} />
    </>
  );
}

/** The line's shares over the analytic accounts (grouped by axis), added and removed in place. */
function SharesFieldset({ kit }: { kit: LineKit }) {
  const { t } = useI18n();
  const { form, reference, err, fieldId } = kit;
  const shares = useFieldArray({ control: form.control, name: 'shares' });
  const shareErr = (i: number, name: 'analytic_account_id' | 'percentage') => {
    const row = (form.formState.errors.shares as unknown as Record<number, ({ message?: string } & Record<string, { message?: string } | undefined>) | undefined> | undefined)?.[i];
    return row?.[name]?.message ?? (name === 'analytic_account_id' ? row?.message : undefined);
  };
  const accountsByAxis = reference.axes
    .filter((a) => a.active)
    .map((axis) => ({ axis, accounts: reference.accounts.filter((a) => a.active && a.axis_id === axis.id) }))
    .filter((g) => g.accounts.length);
  const requiredAxes = reference.axes.filter((a) => a.active && a.required_on_claims);
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-slate-300 p-3">
      <legend className="px-1 font-medium">{t('line.shares')}</legend>
      <p className="text-sm text-slate-600">
        {requiredAxes.length ? t('line.sharesRequired', { axes: requiredAxes.map((a) => a.name).join(', ') }) : t('line.sharesHint')}
      </p>
      {err('shares') ? <p className="text-sm font-medium text-red-700">{err('shares')}</p> : null}
      {shares.fields.map((row, i) => (
        <div key={row.id} className="grid grid-cols-[1fr_6rem] items-end gap-2" data-testid="share-row">
          <SelectField id={fieldId(`share-${i}-account`)} label={t('line.shareAccount', { n: i + 1 })} error={shareErr(i, 'analytic_account_id')} {...form.register(`shares.${i}.analytic_account_id`)}>
            <option value="">{t('line.choose')}</option>
            {accountsByAxis.map((g) => (
              <optgroup key={g.axis.id} label={g.axis.name}>
                {g.accounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.code} — {a.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </SelectField>
          <TextField id={fieldId(`share-${i}-percentage`)} label={t('line.sharePercent')} inputMode="decimal" error={shareErr(i, 'percentage')} {...form.register(`shares.${i}.percentage`)} />
          <div className="col-span-2">
            <Button variant="ghost" onClick={() => shares.remove(i)} aria-label={t('line.removeShareNamed', { n: i + 1 })}>
              {t('line.removeShare')}
            </Button>
          </div>
        </div>
      ))}
      <div>
        <Button variant="secondary" onClick={() => shares.append({ analytic_account_id: '', percentage: '100' })}>
          {t('line.addShare')}
        </Button>
      </div>
    </fieldset>
  );
}

const FILE_INPUT =
  'block w-full min-h-11 rounded-md border border-slate-500 bg-white px-3 py-2 text-base file:mr-3 file:rounded file:border-0 file:bg-blue-700 file:px-3 file:py-1 file:text-white';

function formatKb(bytes: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.max(1, Math.round(bytes / 1024)));
}
