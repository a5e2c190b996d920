/** The booking form's rules, the server's (docs/booking.md, "Limits"), checked before sending. */

export const NAME_MAX = 120;
export const NOTES_MAX = 2000;

export interface BookingFormValues {
  name: string;
  email: string;
  notes: string;
}

export type BookingField = keyof BookingFormValues;

/** Characters as a person counts them (and the server: code points), not UTF-16 units. */
export function charCount(s: string): number {
  return [...s].length;
}

// One @, something on both sides, a dot in the domain, no spaces; the server has the last word.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The first problem of each field, or an empty object when the form may be sent. */
export function validateBooking(v: BookingFormValues): Partial<Record<BookingField, string>> {
  const errors: Partial<Record<BookingField, string>> = {};
  const name = v.name.trim();
  if (name === '') errors.name = 'Please enter your full name.';
  else if (charCount(name) > NAME_MAX)
    errors.name = `Please keep your name to ${NAME_MAX} characters.`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  else if (/[\u0000-\u001f\u007f]/.test(name))
    errors.name = 'Your name has a character that cannot be used.';
  const email = v.email.trim();
  if (email === '') errors.email = 'Please enter your e-mail address.';
  else if (!EMAIL.test(email))
    errors.email = 'Please enter a valid e-mail address, like you@example.com.';
  const notes = charCount(v.notes);
  if (notes > NOTES_MAX) {
    errors.notes = `Please shorten this to ${NOTES_MAX.toLocaleString('en-US')} characters (now ${notes.toLocaleString('en-US')}).`;
  }
  return errors;
}

/** The form field a server error names (`name`, `email`, `notes`), if it is one of the form's. */
export function formField(field: string | undefined): BookingField | null {
  if (field === 'name' || field === 'email' || field === 'notes') return field;
  return null;
}
