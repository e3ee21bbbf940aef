import { labelOf, type Descriptor } from '../../api/approvals';
import { useI18n } from '../../i18n';
import { ReasonDialog as AskReason } from '../../ui/ReasonDialog';

/** Whether taking the edge needs a reason: the descriptor says so (the workflow's rule, not the console's). */
export function needsReason(d: Descriptor): boolean {
  return d.requires_reason;
}

/** Whether the edge is taken through the reason dialog (every edge but a plain approve: a reason may be given). */
export function asksReason(d: Descriptor): boolean {
  return needsReason(d) || d.action_key !== 'approve';
}

/** Asks the reason of a decision on a claim, required when the descriptor says so. */
export function ReasonDialog({
  descriptor,
  onClose,
  onConfirm,
  serverError,
  busy,
}: {
  descriptor: Descriptor | undefined;
  onClose: () => void;
  onConfirm: (reason: string) => void;
  serverError?: string | undefined;
  busy: boolean;
}) {
  const { t, language } = useI18n();
  const required = descriptor ? needsReason(descriptor) : false;
  const label = descriptor ? labelOf(descriptor.labels, language) : '';
  return (
    <AskReason
      decision={descriptor?.action_key}
      title={label}
      label={required ? t('inbox.reason') : t('inbox.reasonOptional')}
      hint={t('inbox.reasonHint')}
      required={required}
      requiredMessage={t('inbox.reasonRequired')}
      cancelLabel={t('inbox.cancel')}
      confirmLabel={label}
      danger={descriptor?.action_key === 'reject'}
      busy={busy}
      serverError={serverError}
      onClose={onClose}
      onConfirm={onConfirm}
    />
  );
}
