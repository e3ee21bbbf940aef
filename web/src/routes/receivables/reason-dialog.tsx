import { useI18n } from '../../i18n';
import { ReasonDialog } from '../../ui/ReasonDialog';
import { labelOf, type InvoiceDescriptor } from './invoice-api';

/**
 * Asks the reason of a decision on a document whose descriptor requires one. The sole-owner exception
 * (the organization's one active member deciding their own document) says why it is asked: the reason
 * is recorded on the timeline as that exception.
 */
export function DocumentReasonDialog({
  descriptor,
  onClose,
  onConfirm,
  serverError,
  busy,
}: {
  descriptor: InvoiceDescriptor | undefined;
  onClose: () => void;
  onConfirm: (reason: string) => void;
  serverError?: string | undefined;
  busy: boolean;
}) {
  const { t, language } = useI18n();
  const label = descriptor ? labelOf(descriptor.labels, language) : '';
  const sole = descriptor?.sole_owner_exception === true;
  return (
    <ReasonDialog
      decision={descriptor?.action_key}
      title={sole ? t('invoice.soleOwnerTitle', { action: label }) : label}
      label={t('invoice.reason')}
      hint={sole ? t('invoice.soleOwnerHint') : t('invoice.reasonHint')}
      required
      requiredMessage={t('invoice.reasonRequired')}
      cancelLabel={t('invoice.back')}
      confirmLabel={label}
      danger={descriptor?.action_key === 'cancel'}
      busy={busy}
      serverError={serverError}
      onClose={onClose}
      onConfirm={onConfirm}
    >
      {sole ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900" data-testid="sole-owner-explanation">
          {t('invoice.soleOwnerExplanation')}
        </p>
      ) : null}
    </ReasonDialog>
  );
}
