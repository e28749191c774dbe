import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFieldErrorText } from '../hooks/useFieldErrorText.ts';
import type { Identity } from '../hooks/useIdentity.ts';
import { PhoneFields } from './PhoneFields.tsx';

/** The email input, or the country and phone inputs, of the identity's current mode. */
export function IdentityFields({
  identity,
  testIdPrefix,
  countryDescription,
}: {
  identity: Identity;
  testIdPrefix: string;
  /** A line under the phone's country (on the register form: this is the nationality). */
  countryDescription?: string;
}) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  if (identity.mode === 'phone') {
    return (
      <PhoneFields
        country={identity.country}
        onCountry={identity.setCountry}
        phone={identity.phone}
        onPhone={identity.setPhone}
        error={errorText(identity.error)}
        testIdPrefix={testIdPrefix}
        {...(countryDescription ? { countryDescription } : {})}
      />
    );
  }
  return (
    <TextInput
      label={t('auth.account.email')}
      type="email"
      inputMode="email"
      autoComplete="email"
      placeholder={t('auth.account.emailPlaceholder')}
      value={identity.email}
      onChange={(event) => identity.setEmail(event.currentTarget.value)}
      error={errorText(identity.error)}
      data-testid={`${testIdPrefix}-email`}
    />
  );
}
