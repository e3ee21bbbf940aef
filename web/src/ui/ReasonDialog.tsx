import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from './Button';
import { Dialog } from './Dialog';
import { TextAreaField } from './Field';

/**
 * The reason of a decision, asked in a dialog: claims, receivables documents and payouts all ask it
 * here. A required reason may not be blank (said on the field, the dialog stays open); a refusal of
 * the server lands on the field too and the text is kept; the text is cleared when another decision
 * (`decision`) is asked. Whether a reason is required is the caller's descriptor's to say.
 */
export function ReasonDialog({
  decision,
  title,
  label,
  hint,
  required,
  requiredMessage,
  cancelLabel,
  confirmLabel,
  danger = false,
  busy,
  serverError,
  onClose,
  onConfirm,
  children,
}: {
  /** The decision asked about (its action key); undefined: the dialog is closed. */
  decision: string | undefined;
  title: ReactNode;
  label: string;
  hint?: string;
  required: boolean;
  requiredMessage: string;
  /** A button that closes the dialog without deciding; none when unset (Escape and the close button remain). */
  cancelLabel?: string;
  confirmLabel: string;
  danger?: boolean;
  busy: boolean;
  serverError?: string | undefined;
  onClose: () => void;
  onConfirm: (reason: string) => void;
  /** Said above the field. */
  children?: ReactNode;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    setReason('');
    setError(undefined);
  }, [decision]);
  useEffect(() => {
    if (serverError) field.current?.focus();
  }, [serverError]);
  if (decision === undefined) return <Dialog open={false} title="" onClose={onClose}>{null}</Dialog>;
  return (
    <Dialog open title={title} onClose={onClose}>
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (required && !reason.trim()) {
            setError(requiredMessage);
            field.current?.focus();
            return;
          }
          setError(undefined);
          onConfirm(reason.trim());
        }}
      >
        {children}
        <TextAreaField
          ref={field}
          name="reason"
          label={label}
          hint={hint}
          rows={4}
          maxLength={500}
          required={required}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={error ?? serverError}
        />
        <div className="flex flex-wrap justify-end gap-2">
          {cancelLabel ? (
            <Button variant="secondary" onClick={onClose}>
              {cancelLabel}
            </Button>
          ) : null}
          <Button type="submit" variant={danger ? 'danger' : 'primary'} busy={busy}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
