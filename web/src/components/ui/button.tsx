import type { ButtonHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

export type ButtonVariant = 'primary' | 'outline' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-md font-mono font-medium whitespace-nowrap ' +
  'transition-colors duration-150 select-none disabled:pointer-events-none disabled:opacity-50 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-term-cyan';

const variants: Record<ButtonVariant, string> = {
  primary:
    'bg-term-green text-ink-950 hover:bg-term-green-strong shadow-[0_0_0_1px_rgb(74_222_128/0.4),0_8px_24px_-12px_rgb(74_222_128/0.6)]',
  outline:
    'border border-ink-600 bg-ink-850/60 text-fg hover:border-term-green/70 hover:text-term-green',
  ghost: 'text-muted hover:text-fg hover:bg-ink-800',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-9 px-3 text-sm',
  md: 'h-11 px-5 text-sm',
  lg: 'h-12 px-6 text-base',
};

/** Class list for anything that should look like a button (buttons and router links alike). */
export function buttonClasses(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  className?: string,
): string {
  return cn(base, variants[variant], sizes[size], className);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export function Button({ variant, size, className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...rest} />;
}
