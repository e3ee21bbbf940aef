import { useId, type ComponentProps, type ReactNode } from 'react';

interface FieldChrome {
  label: ReactNode;
  /** The field's error (a schema's or the server's), shown under it and announced. */
  error?: string | undefined;
  hint?: ReactNode;
}

const control = (invalid: boolean) =>
  `block w-full min-h-11 rounded-md border bg-white px-3 py-2 text-base text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 ${invalid ? 'border-red-700' : 'border-slate-500'}`;

function Chrome({ id, label, error, hint, children }: FieldChrome & { id: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium text-slate-900">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, { error, hint }: FieldChrome) {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** A labelled input; spread react-hook-form's `register(name)` into it. */
export function TextField({ label, error, hint, id: givenId, className = '', ...input }: FieldChrome & ComponentProps<'input'>) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <Chrome id={id} label={label} error={error} hint={hint}>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, error, hint })} className={`${control(!!error)} ${className}`} {...input} />
    </Chrome>
  );
}

/** A labelled select. */
export function SelectField({ label, error, hint, id: givenId, className = '', children, ...select }: FieldChrome & ComponentProps<'select'>) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <Chrome id={id} label={label} error={error} hint={hint}>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, error, hint })} className={`${control(!!error)} ${className}`} {...select}>
        {children}
      </select>
    </Chrome>
  );
}

/** A labelled multi-line text. */
export function TextAreaField({ label, error, hint, id: givenId, className = '', ...area }: FieldChrome & ComponentProps<'textarea'>) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <Chrome id={id} label={label} error={error} hint={hint}>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, error, hint })} className={`${control(!!error)} ${className}`} {...area} />
    </Chrome>
  );
}
