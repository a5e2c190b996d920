/** Browser-side checks of the account forms; the server checks again and has the last word. */

export type Errors<K extends string> = Partial<Record<K, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailError(value: string): string | undefined {
  if (value.trim() === '') return 'Email is required.';
  if (!EMAIL.test(value.trim())) return 'Enter a valid email address.';
  return undefined;
}

export function requiredError(value: string, label: string): string | undefined {
  return value.trim() === '' ? `${label} is required.` : undefined;
}

export function passwordError(value: string, min = 0): string | undefined {
  if (value === '') return 'Password is required.';
  if (value.length < min) return `Password must be at least ${min} characters.`;
  return undefined;
}

/** The errors that are set, or null when the form is valid. */
export function collect<K extends string>(errors: Errors<K>): Errors<K> | null {
  const set = Object.entries(errors).filter(([, v]) => v !== undefined);
  return set.length === 0 ? null : (Object.fromEntries(set) as Errors<K>);
}

/** The password length the server requires on sign-up and reset. */
export const SERVER_PASSWORD_MIN = 8;
/** The login modal's browser-side minimum (the spec's rule; the server decides on sign-in). */
export const MODAL_PASSWORD_MIN = 6;
