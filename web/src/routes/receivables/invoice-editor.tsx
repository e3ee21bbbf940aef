import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useFieldArray, useWatch } from 'react-hook-form';
import { isStale, problemOf } from '../../api/problem';
import { problemMessage } from '../../api/problem-message';
import { trpc, write } from '../../api/trpc';
import { useSchemaForm, type SchemaForm } from '../../forms/use-schema-form';
import { useI18n } from '../../i18n';
import { Alert, useToast } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { SelectField, TextAreaField, TextField } from '../../ui/Field';
import { PageTitle } from '../layout';
import { EditorLines, Totals } from './editor-lines';
import { editorSchema, emptyLine, toInput, valuesOf, type EditorValues } from './editor-form';
import { customerQuery, customersQuery, invoiceQuery, invoiceReferenceQuery, previewQuery, type InvoiceAnswer, type PreviewInput } from './invoice-api';
import { kindLabel } from './invoice-states';

export type EditorForm = SchemaForm<typeof editorSchema>;

/** The editor's address for a new document: its kind, and the invoice a credit or debit note is against. */
export interface NewDocumentSearch {
  kind?: 'sales_invoice' | 'customer_credit_note' | 'customer_debit_note' | undefined;
  original?: string | undefined;
}

/** A new document: a sales invoice, or a credit or debit note against an issued invoice (its customer and currency). */
export function NewInvoicePage({ kind = 'sales_invoice', original }: NewDocumentSearch) {
  const { t } = useI18n();
  const against = useQuery({ ...invoiceQuery(original ?? ''), enabled: Boolean(original) });
  if (original && against.isPending) return <p role="status">{t('app.loading')}</p>;
  if (against.error) return <Alert tone="error">{problemMessage(problemOf(against.error), t)}</Alert>;
  const o = against.data;
  const values: EditorValues = {
    kind,
    customer_id: o?.customer_id ?? '',
    currency: o?.currency ?? '',
    fx_rate: o ? o.fx_rate : '',
    customer_reference: '',
    payment_terms_days: '',
    reason: '',
    original_invoice_id: o?.id ?? '',
    lines: o && kind === 'customer_credit_note' ? valuesOf(o).lines : [emptyLine()],
  };
  return <InvoiceEditor initial={values} original={o} />;
}

/** A draft, changed: the same editor, saved with its revision. */
export function EditDraftPage({ invoiceId }: { invoiceId: string }) {
  const { t } = useI18n();
  const doc = useQuery(invoiceQuery(invoiceId));
  if (doc.isPending) return <p role="status">{t('app.loading')}</p>;
  if (doc.error) return <Alert tone="error">{problemMessage(problemOf(doc.error), t)}</Alert>;
  if (doc.data.semantic !== 'draft') return <Alert tone="warning">{t('editor.notDraft')}</Alert>;
  return <InvoiceEditor key={doc.data.revision} initial={valuesOf(doc.data)} draft={doc.data} />;
}

/**
 * The draft editor: the customer (their currency, terms, account and tax code apply where a field is
 * left blank), the lines, and the totals the server prices as the person types (receivables.invoices.preview,
 * half a second after the last key). Saving creates the draft or updates it with its revision.
 */
function InvoiceEditor({ initial, draft, original }: { initial: EditorValues; draft?: InvoiceAnswer; original?: InvoiceAnswer | undefined }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useSchemaForm(editorSchema, { defaultValues: initial });
  const lines = useFieldArray({ control: form.control, name: 'lines' });
  const [key] = useState(() => crypto.randomUUID());
  const [notice, setNotice] = useState<string>();
  const preview = usePreview(form);
  const kind = initial.kind;
  const customers = useQuery(customersQuery);
  const customerId = useWatch({ control: form.control, name: 'customer_id' });
  const customer = useQuery({ ...customerQuery(customerId), enabled: Boolean(customerId) });
  const reference = useQuery(invoiceReferenceQuery);

  const onSubmit = form.handleSubmit(async (values) => {
    form.clearProblem();
    setNotice(undefined);
    const input = toInput(values);
    try {
      const saved = draft
        ? await trpc.receivables.invoices.update.mutate({ ...withoutKind(input), id: draft.id }, write({ revision: draft.revision }))
        : await trpc.receivables.invoices.create.mutate(input, write({ idempotencyKey: key }));
      queryClient.setQueryData(invoiceQuery(saved.id).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: ['receivables.invoices.list'] });
      void queryClient.invalidateQueries({ queryKey: ['me.todo'] });
      toast(draft ? t('editor.saved') : t('editor.created'));
      await navigate({ to: '/invoices/$invoiceId', params: { invoiceId: saved.id } });
    } catch (error) {
      const problem = problemOf(error);
      if (draft && isStale(problem)) {
        await queryClient.invalidateQueries({ queryKey: invoiceQuery(draft.id).queryKey });
        setNotice(t('problem.stale'));
      } else form.showProblem(error);
    }
  });

  const title = draft ? t('editor.editTitle', { kind: kindLabel(kind, t) }) : t('editor.newTitle', { kind: kindLabel(kind, t) });
  const fieldError = (name: keyof EditorValues) => form.formState.errors[name]?.message as string | undefined;
  const c = customer.data;
  return (
    <>
      <nav aria-label={t('invoice.breadcrumb')} className="mb-2 text-sm">
        <Link to="/invoices" className="text-blue-800 underline">
          {t('invoices.title')}
        </Link>
      </nav>
      <PageTitle intro={original ? t('editor.against', { reference: original.reference ?? '' }) : t('editor.intro')}>{title}</PageTitle>
      {notice ? <Alert tone="warning" className="mb-4">{notice}</Alert> : null}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
        <section aria-labelledby="editor-customer" className="grid gap-4 rounded-lg border border-slate-300 bg-white p-4 shadow-sm sm:grid-cols-2">
          <h2 id="editor-customer" className="text-lg font-semibold sm:col-span-2">
            {t('editor.customerSection')}
          </h2>
          <SelectField label={t('editor.customer')} required disabled={Boolean(original)} error={fieldError('customer_id') === 'required' ? t('editor.customerRequired') : fieldError('customer_id')} {...form.register('customer_id')}>
            <option value="">{t('editor.chooseCustomer')}</option>
            {customers.data?.map((x) => (
              <option key={x.id} value={x.id}>
                {x.legal_name} ({x.code})
              </option>
            ))}
          </SelectField>
          {c ? (
            <p className="self-end text-sm text-slate-700" data-testid="customer-defaults">
              {t('editor.customerDefaults', {
                currency: c.currency,
                terms: c.payment_terms_days,
                tax: reference.data?.allTaxCodes.find((x) => x.id === c.default_tax_code_id)?.code ?? '—',
                account: reference.data?.allAccounts.find((x) => x.id === c.default_revenue_account_id)?.code ?? '—',
              })}
            </p>
          ) : (
            <span />
          )}
          <TextField label={t('editor.currency')} hint={c ? t('editor.currencyHint', { currency: c.currency }) : undefined} maxLength={3} autoCapitalize="characters" disabled={Boolean(original)} placeholder={c?.currency} error={fieldError('currency')} {...form.register('currency')} />
          <TextField label={t('editor.fxRate')} hint={t('editor.fxRateHint')} inputMode="decimal" autoComplete="off" error={fieldError('fx_rate')} {...form.register('fx_rate')} />
          <TextField label={t('editor.terms')} hint={c ? t('editor.termsHint', { days: c.payment_terms_days }) : undefined} inputMode="numeric" placeholder={c ? String(c.payment_terms_days) : undefined} error={fieldError('payment_terms_days')} {...form.register('payment_terms_days')} />
          <TextField label={t('editor.customerReference')} maxLength={100} autoComplete="off" error={fieldError('customer_reference')} {...form.register('customer_reference')} />
          {kind !== 'sales_invoice' ? (
            <div className="sm:col-span-2">
              <TextAreaField label={t('editor.reason')} required={kind === 'customer_credit_note'} rows={2} maxLength={300} error={fieldError('reason') ?? fieldError('original_invoice_id')} {...form.register('reason')} />
            </div>
          ) : null}
        </section>
        <EditorLines form={form} lines={lines} preview={preview.data} currency={preview.data?.currency ?? (form.getValues('currency') || c?.currency || '')} />
        <Button variant="secondary" className="self-start" onClick={() => lines.append(emptyLine())} data-testid="add-line">
          {t('editor.addLine')}
        </Button>
        <Totals preview={preview.data} pending={preview.isFetching} error={preview.error ? problemMessage(problemOf(preview.error), t) : undefined} />
        {form.formMessage ? <Alert tone="error">{form.formMessage}</Alert> : null}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" busy={form.formState.isSubmitting} data-testid="save-draft">
            {draft ? t('editor.save') : t('editor.create')}
          </Button>
          <Link to={draft ? '/invoices/$invoiceId' : '/invoices'} params={draft ? { invoiceId: draft.id } : {}} className="inline-flex min-h-11 items-center px-2 text-blue-800 underline">
            {t('editor.cancel')}
          </Link>
        </div>
      </form>
    </>
  );
}

const DECIMAL = /^\d{1,16}(\.\d{1,10})?$/;

/** Values the preview can price: a customer, and on every line a quantity and a unit price written as decimals. */
function isPriceable(v: EditorValues): boolean {
  const blankOr = (x: string, re: RegExp) => x.trim() === '' || re.test(x.trim());
  if (!blankOr(v.payment_terms_days, /^\d{1,3}$/) || !blankOr(v.fx_rate, DECIMAL)) return false;
  return Boolean(v.customer_id) && v.lines.length > 0 && v.lines.every((l) => DECIMAL.test(l.quantity.trim()) && DECIMAL.test(l.unit_price.trim()) && (l.discount_amount.trim() === '' || DECIMAL.test(l.discount_amount.trim())));
}

function withoutKind(input: PreviewInput): Omit<PreviewInput, 'kind'> {
  const { kind: _kind, ...rest } = input;
  return rest;
}

/** The server's pricing of the values, asked half a second after the last change, once they make a well-formed input. */
function usePreview(form: EditorForm) {
  const values = useWatch({ control: form.control }) as EditorValues;
  const [input, setInput] = useState<PreviewInput>();
  const serialized = JSON.stringify(values);
  useEffect(() => {
    const timer = setTimeout(() => {
      const v = JSON.parse(serialized) as EditorValues;
      if (!v.customer_id) return;
      if (isPriceable(v)) setInput(toInput(v));
    }, 500);
    return () => clearTimeout(timer);
  }, [serialized]);
  return useQuery({ ...previewQuery(input as PreviewInput), enabled: input !== undefined });
}
