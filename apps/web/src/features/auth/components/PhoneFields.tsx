import { Stack, Text, TextInput } from '@mantine/core';
import type { CountryCode } from 'libphonenumber-js/max';
import { getCountryCallingCode } from 'libphonenumber-js/max';
import { useTranslation } from 'react-i18next';
import { CountrySelect } from './CountrySelect.tsx';

/** Country select and the national number, with the calling code shown in front of it. */
export function PhoneFields({
  country,
  onCountry,
  phone,
  onPhone,
  error,
  testIdPrefix,
  countryDescription,
}: {
  country: CountryCode;
  onCountry: (country: CountryCode) => void;
  phone: string;
  onPhone: (phone: string) => void;
  error: string | undefined;
  testIdPrefix: string;
  countryDescription?: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <CountrySelect
        value={country}
        onChange={onCountry}
        testId={`${testIdPrefix}-country`}
        {...(countryDescription ? { description: countryDescription } : {})}
      />
      <TextInput
        label={t('auth.account.phone')}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        value={phone}
        onChange={(event) => onPhone(event.currentTarget.value)}
        error={error}
        leftSection={
          <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
            +{getCountryCallingCode(country)}
          </Text>
        }
        leftSectionWidth={56}
        data-testid={`${testIdPrefix}-phone`}
      />
    </Stack>
  );
}
