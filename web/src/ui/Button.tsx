import type { ComponentProps } from 'react';

const VARIANTS = {
  primary: 'bg-blue-700 text-white hover:bg-blue-800 disabled:bg-slate-400',
  secondary: 'bg-white text-slate-900 border border-slate-400 hover:bg-slate-100 disabled:text-slate-500',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-slate-400',
  ghost: 'bg-transparent text-blue-800 hover:bg-blue-50 disabled:text-slate-500',
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

export const buttonClass = (variant: ButtonVariant = 'primary', extra = '') =>
  `inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 py-2 text-base font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed ${VARIANTS[variant]} ${extra}`;

/** A button at least 44 px high (a thumb's target). `busy` disables it and says so to screen readers. */
export function Button({ variant = 'primary', busy = false, className = '', type = 'button', disabled, children, ...rest }: ComponentProps<'button'> & { variant?: ButtonVariant; busy?: boolean }) {
  return (
    <button type={type} className={buttonClass(variant, className)} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {children}
    </button>
  );
}
