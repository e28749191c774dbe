import { type CodeScene, type GetCodeData, LOCALE_OF } from '@bourse/protocol';
import { Alert, Button, Group, Loader, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useInfo } from '../../../api/info.ts';
import { ApiError } from '../../../lib/api.ts';
import { regionName } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { sendCode, useSecurityCenter } from '../api.ts';
import { writePending } from '../pending.ts';
import { Frame } from './Frame.tsx';

const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;
const DEFAULT_COUNTRY: Record<string, CountryCode> = { en: 'US', zh: 'CN', ft: 'TW' };

/** Country or region with its calling code, named in the customer's language. */
function useCountryOptions() {
  const lang = useLang();
  return useMemo(() => {
    const collator = new Intl.Collator(LOCALE_OF[lang]);
    return getCountries()
      .map((code) => ({ value: code, label: `${regionName(code, lang)} +${getCountryCallingCode(code)}` }))
      .sort((a, b) => collator.compare(a.label, b.label));
  }, [lang]);
}

/** Sends a code; a cool-down refusal means one went out less than a minute ago and still holds. */
async function codeOrCooldown(input: {
  account: string;
  area_code?: string;
  scene: CodeScene;
}): Promise<number> {
  try {
    const sent: GetCodeData = await sendCode(input);
    return sent.resend_in;
  } catch (error) {
    if (error instanceof ApiError && error.reason === 'CODE_COOLDOWN')
      return Number(error.params?.seconds ?? 60);
    throw error;
  }
}

/**
 * `/mobile` and `/email`: the new contact; then codes go to it (and to the current one when this is
 * a change) and the customer enters them on `/verificationCode`.
 */
export function ContactPage({ type }: { type: 'phone' | 'email' }) {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation('common');
  const lang = useLang();
  const navigate = useNavigate();
  const info = useInfo();
  const center = useSecurityCenter();
  const countries = useCountryOptions();
  const [country, setCountry] = useState<CountryCode>(DEFAULT_COUNTRY[lang] ?? 'US');
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const kind = t(`message.kind.${type}`);
  const data = center.data;
  const current = data ? (type === 'email' ? data.email : data.phone) : '';
  const title = current
    ? t(type === 'email' ? 'contact.emailChangeTitle' : 'contact.phoneChangeTitle')
    : t(type === 'email' ? 'contact.emailTitle' : 'contact.phoneTitle');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRefused(null);
    let account: string;
    let areaCode: string | undefined;
    let shown: string;
    if (type === 'email') {
      account = value.trim().toLowerCase();
      if (!EMAIL.test(account)) return setInvalid(true);
      shown = account;
    } else {
      const parsed = parsePhoneNumberFromString(value.trim(), country);
      if (!parsed?.isValid()) return setInvalid(true);
      account = parsed.nationalNumber;
      areaCode = parsed.countryCallingCode;
      shown = parsed.formatInternational();
    }
    setSending(true);
    try {
      const now = Date.now();
      const oldWait = current ? await codeOrCooldown({ account: current, scene: 'unbind' }) : 0;
      const newWait = await codeOrCooldown({
        account,
        scene: 'bind',
        ...(areaCode ? { area_code: areaCode } : {}),
      });
      writePending({
        type,
        account,
        ...(areaCode ? { area_code: areaCode } : {}),
        shown,
        old: current ? { account: current, shown: current } : null,
        resendAt: { code: now + newWait * 1000, old_code: now + oldWait * 1000 },
      });
      navigate('/verificationCode');
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'refused') setRefused(error.message);
    } finally {
      setSending(false);
    }
  };

  if (!data || !info.data) {
    return (
      <Frame title={title} testId={`contact-page-${type}`}>
        <Loader size="sm" />
      </Frame>
    );
  }
  if (info.data.is_demo) {
    return (
      <Frame title={title} testId={`contact-page-${type}`}>
        <Alert variant="light" color="yellow" data-testid="contact-demo">
          {t('contact.demo')}
        </Alert>
      </Frame>
    );
  }
  return (
    <Frame
      title={title}
      subtitle={current ? t('contact.changeNote', { kind }) : t('contact.bindNote', { kind })}
      testId={`contact-page-${type}`}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {current ? (
            <Text size="sm" data-testid="contact-current">
              {t('contact.current', { value: current })}
            </Text>
          ) : null}
          {refused ? (
            <Alert color="yellow" variant="light" role="alert" data-testid="contact-error">
              {refused}
            </Alert>
          ) : null}
          {type === 'email' ? (
            <TextInput
              label={t('contact.newEmail')}
              type="email"
              autoComplete="email"
              value={value}
              error={invalid ? tc('reason.EMAIL_INVALID') : undefined}
              onChange={(event) => {
                setValue(event.currentTarget.value);
                setInvalid(false);
              }}
              data-testid="contact-email"
            />
          ) : (
            <Group align="flex-start" gap="sm" grow preventGrowOverflow={false} wrap="wrap">
              <Select
                label={t('contact.areaCode')}
                data={countries}
                value={country}
                onChange={(next) => next && setCountry(next as CountryCode)}
                searchable
                allowDeselect={false}
                comboboxProps={{ withinPortal: true }}
                maxDropdownHeight={280}
                miw={200}
                data-testid="contact-country"
              />
              <TextInput
                label={t('contact.newPhone')}
                type="tel"
                inputMode="tel"
                autoComplete="tel-national"
                value={value}
                miw={200}
                error={invalid ? tc('reason.PHONE_INVALID') : undefined}
                leftSection={
                  <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    +{getCountryCallingCode(country)}
                  </Text>
                }
                leftSectionWidth={56}
                onChange={(event) => {
                  setValue(event.currentTarget.value);
                  setInvalid(false);
                }}
                data-testid="contact-phone"
              />
            </Group>
          )}
          {current ? (
            <Text size="xs" c="dimmed">
              {t('contact.loginNote', { kind })}
            </Text>
          ) : null}
          <Button type="submit" size="md" loading={sending} data-testid="contact-submit">
            {t('contact.next')}
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}

export const MobilePage = () => <ContactPage type="phone" />;
export const EmailPage = () => <ContactPage type="email" />;
