import { Select } from '@mantine/core';
import type { CountryCode } from 'libphonenumber-js/max';
import { useTranslation } from 'react-i18next';
import { useCountries } from '../hooks/useCountries.ts';

/** Country or region of a phone number; searchable by name or calling code. */
export function CountrySelect({
  value,
  onChange,
  testId,
  label = true,
  description,
}: {
  value: CountryCode;
  onChange: (country: CountryCode) => void;
  testId: string;
  /** Without a visible label the field still has an accessible name. */
  label?: boolean;
  /** A line under the label (on the register form: this is the nationality). */
  description?: string;
}) {
  const { t } = useTranslation();
  const countries = useCountries();
  return (
    <Select
      label={label ? t('auth.account.country') : undefined}
      aria-label={t('auth.account.country')}
      description={description}
      data={countries}
      value={value}
      onChange={(next) => {
        if (next) onChange(next as CountryCode);
      }}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('auth.account.countryNothing')}
      placeholder={t('auth.account.countrySearch')}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={280}
      autoComplete="country"
      data-testid={testId}
    />
  );
}
