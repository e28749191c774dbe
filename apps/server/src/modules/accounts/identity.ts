import { type CountryCode, getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** What a customer typed as their account, normalised to how it is stored. */
export type Identity =
  | { kind: 'email'; email: string }
  | { kind: 'phone'; phone: string; areaCode: string; country: string }
  | { kind: 'name'; name: string };

const EMAIL_MAX = 254;
// Deliberately plain: one @, a dot in the domain, no spaces. Delivery of the code proves the rest.
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;
const NAME = /^[A-Za-z][A-Za-z0-9_.-]{2,31}$/;

/** An account name as the customer chose it (case kept; unique without regard to case). */
export function parseName(raw: string): string | null {
  const name = raw.trim();
  return NAME.test(name) ? name : null;
}

export function parseEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return email.length <= EMAIL_MAX && EMAIL.test(email) ? email : null;
}

const COUNTRIES: ReadonlySet<string> = new Set(getCountries());

/**
 * A nationality as the app knows it: an ISO 3166-1 alpha-2 code in the register form's country list
 * (libphonenumber's countries), upper-cased; null for anything else.
 */
export function knownCountry(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  return COUNTRIES.has(code) ? code : null;
}

/** A phone with its area code (calling code) or country; stored in E.164. */
export function parsePhone(raw: string, options: { areaCode?: string; country?: string }): Identity | null {
  const digits = raw.trim().replace(/[\s()-]/g, '');
  if (!/^\+?\d{4,17}$/.test(digits)) return null;
  const areaCode = (options.areaCode ?? '').replace(/^\+/, '');
  if (areaCode !== '' && !/^\d{1,4}$/.test(areaCode)) return null;
  const country = (options.country ?? '').toUpperCase();
  const international = digits.startsWith('+') ? digits : areaCode ? `+${areaCode}${digits}` : null;
  const parsed = international
    ? parsePhoneNumberFromString(international)
    : /^[A-Z]{2}$/.test(country)
      ? parsePhoneNumberFromString(digits, country as CountryCode)
      : undefined;
  if (!parsed?.isValid()) return null;
  if (areaCode !== '' && parsed.countryCallingCode !== areaCode) return null;
  return {
    kind: 'phone',
    phone: parsed.number,
    areaCode: parsed.countryCallingCode,
    country: parsed.country ?? (country || ''),
  };
}

/** Login accepts an account name, a phone or an email in one field. */
export function parseLoginAccount(raw: string, options: { areaCode?: string }): Identity | null {
  const trimmed = raw.trim();
  if (trimmed.includes('@')) {
    const email = parseEmail(trimmed);
    return email ? { kind: 'email', email } : null;
  }
  if (/^\+?[\d\s()-]+$/.test(trimmed)) return parsePhone(trimmed, options);
  return NAME.test(trimmed) ? { kind: 'name', name: trimmed } : null;
}

export function identityKey(identity: Identity): { email: string } | { phone: string } | { name: string } {
  if (identity.kind === 'email') return { email: identity.email };
  if (identity.kind === 'phone') return { phone: identity.phone };
  return { name: identity.name };
}

/** Where codes are sent and what they are filed under. */
export function targetOf(identity: Identity): string {
  if (identity.kind === 'email') return identity.email;
  if (identity.kind === 'phone') return identity.phone;
  return `name:${identity.name.toLowerCase()}`;
}
