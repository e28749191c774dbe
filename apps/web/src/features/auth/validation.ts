import type { catalogs } from '@bourse/i18n';
import { ACCESS_LIMITS } from '@bourse/protocol';
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Client-side checks with the server's limits (ACCESS_LIMITS) and rules, so most refusals are caught
 * before a round trip. Errors are descriptions, translated when rendered, so they follow the language.
 */
export type FieldName = keyof (typeof catalogs)['en']['common']['field'];

export type FieldError =
  | { kind: 'required'; field: FieldName }
  | { kind: 'tooLong'; field: FieldName; max: number }
  | { kind: 'email' }
  | { kind: 'phone' }
  | { kind: 'account' }
  | { kind: 'passwordLength'; min: number; max: number }
  | { kind: 'mismatch' }
  | { kind: 'unchanged' }
  | { kind: 'code'; length: number }
  | { kind: 'agree' }
  | { kind: 'invitation' };

// The server's rules (apps/server accounts/identity.ts): plain on purpose; the code's delivery proves the rest.
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;
const ACCOUNT_NAME = /^[A-Za-z][A-Za-z0-9_.-]{2,31}$/;
const PHONE_LIKE = /^\+?[\d\s()-]+$/;

export function checkRequired(value: string, field: FieldName): FieldError | null {
  return value.trim() === '' ? { kind: 'required', field } : null;
}

export function checkEmail(value: string): FieldError | null {
  const email = value.trim();
  if (email === '') return { kind: 'required', field: 'account' };
  if (email.length > ACCESS_LIMITS.emailMax)
    return { kind: 'tooLong', field: 'account', max: ACCESS_LIMITS.emailMax };
  return EMAIL.test(email) ? null : { kind: 'email' };
}

export type PhoneParts = { national: string; areaCode: string; country: CountryCode };

/** A phone typed in the national form for the chosen country (or with +): its parts, or null. */
export function parsePhone(value: string, country: CountryCode): PhoneParts | null {
  const parsed = parsePhoneNumberFromString(value.trim(), country);
  if (!parsed?.isValid()) return null;
  return {
    national: parsed.nationalNumber,
    areaCode: parsed.countryCallingCode,
    country: parsed.country ?? country,
  };
}

export function checkPhone(value: string, country: CountryCode): FieldError | null {
  if (value.trim() === '') return { kind: 'required', field: 'account' };
  return parsePhone(value, country) ? null : { kind: 'phone' };
}

/** Does a login account look like a phone number (so it needs a country or a leading +)? */
export function looksLikePhone(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length > 0 && PHONE_LIKE.test(trimmed) && /\d/.test(trimmed);
}

/** The password tab's one field: an account name, an email or a phone. */
export function checkLoginAccount(value: string, country: CountryCode): FieldError | null {
  const account = value.trim();
  if (account === '') return { kind: 'required', field: 'account' };
  if (account.length > ACCESS_LIMITS.emailMax)
    return { kind: 'tooLong', field: 'account', max: ACCESS_LIMITS.emailMax };
  if (account.includes('@')) return checkEmail(account);
  if (looksLikePhone(account)) return checkPhone(account, country);
  return ACCOUNT_NAME.test(account) ? null : { kind: 'account' };
}

export function checkPassword(value: string, rule: { min: number; max: number }): FieldError | null {
  if (value === '') return { kind: 'required', field: 'password' };
  return value.length < rule.min || value.length > rule.max
    ? { kind: 'passwordLength', min: rule.min, max: rule.max }
    : null;
}

/** The current password on the change form: only presence and the wire limit. */
export function checkOldPassword(value: string): FieldError | null {
  if (value === '') return { kind: 'required', field: 'old_password' };
  return value.length > ACCESS_LIMITS.passwordMax
    ? { kind: 'tooLong', field: 'old_password', max: ACCESS_LIMITS.passwordMax }
    : null;
}

export function checkConfirm(password: string, confirm: string): FieldError | null {
  if (confirm === '') return { kind: 'required', field: 'password2' };
  return password === confirm ? null : { kind: 'mismatch' };
}

/** Changing to the same password is refused by the server; say so before sending. */
export function checkChanged(oldPassword: string, password: string): FieldError | null {
  return oldPassword !== '' && oldPassword === password ? { kind: 'unchanged' } : null;
}

/** A login password: present and within the wire limit (its length rule applied when it was set). */
export function checkLoginPassword(value: string): FieldError | null {
  if (value === '') return { kind: 'required', field: 'password' };
  return value.length > ACCESS_LIMITS.passwordMax
    ? { kind: 'tooLong', field: 'password', max: ACCESS_LIMITS.passwordMax }
    : null;
}

export function checkCode(value: string): FieldError | null {
  const code = value.trim();
  if (code === '') return { kind: 'required', field: 'code' };
  return new RegExp(`^\\d{${ACCESS_LIMITS.codeLength}}$`).test(code)
    ? null
    : { kind: 'code', length: ACCESS_LIMITS.codeLength };
}

export function checkInvitation(value: string, required: boolean): FieldError | null {
  const code = value.trim();
  if (code === '') return required ? { kind: 'invitation' } : null;
  return code.length > ACCESS_LIMITS.invitationCodeMax
    ? { kind: 'tooLong', field: 'invitation_code', max: ACCESS_LIMITS.invitationCodeMax }
    : null;
}

export type Errors<K extends string> = Partial<Record<K, FieldError>>;

/** Keeps only the failed checks; an empty object means the form may be sent. */
export function collect<K extends string>(checks: Record<K, FieldError | null>): Errors<K> {
  const errors: Errors<K> = {};
  for (const key of Object.keys(checks) as K[]) {
    const error = checks[key];
    if (error) errors[key] = error;
  }
  return errors;
}

export function hasErrors(errors: Errors<string>): boolean {
  return Object.keys(errors).length > 0;
}
