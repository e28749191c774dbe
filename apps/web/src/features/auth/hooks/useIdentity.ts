import type { CountryCode } from 'libphonenumber-js/max';
import { useState } from 'react';
import { useLang } from '../../../lib/i18n.ts';
import type { CodeTarget } from '../components/CodeField.tsx';
import { checkEmail, checkPhone, type FieldError, parsePhone } from '../validation.ts';
import { defaultCountry } from './useCountries.ts';

export type IdentityMode = 'email' | 'phone';

/** An email or a phone (with its country): the identity a code is sent to and an account is found by. */
export type Identity = ReturnType<typeof useIdentity>;

export function useIdentity(initialMode: IdentityMode = 'email') {
  const lang = useLang();
  const [mode, setModeState] = useState<IdentityMode>(initialMode);
  const [email, setEmailState] = useState('');
  const [country, setCountryState] = useState<CountryCode>(() => defaultCountry(lang));
  const [phone, setPhoneState] = useState('');
  const [error, setError] = useState<FieldError | undefined>(undefined);

  const check = (): FieldError | null => (mode === 'email' ? checkEmail(email) : checkPhone(phone, country));

  /** Validates and shows the field's error; the parts to send, or null. */
  const resolve = (): CodeTarget => {
    const found = check();
    setError(found ?? undefined);
    if (found) return null;
    if (mode === 'email') {
      const account = email.trim();
      return { account, shown: account };
    }
    const parts = parsePhone(phone, country);
    if (!parts) return null;
    return {
      account: parts.national,
      area_code: parts.areaCode,
      shown: `+${parts.areaCode} ${parts.national}`,
    };
  };

  return {
    mode,
    setMode: (next: IdentityMode) => {
      setModeState(next);
      setError(undefined);
    },
    email,
    setEmail: (next: string) => {
      setEmailState(next);
      setError(undefined);
    },
    country,
    setCountry: (next: CountryCode) => {
      setCountryState(next);
      setError(undefined);
    },
    phone,
    setPhone: (next: string) => {
      setPhoneState(next);
      setError(undefined);
    },
    error,
    resolve,
  };
}
