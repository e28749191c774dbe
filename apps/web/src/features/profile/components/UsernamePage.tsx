import { PROFILE_LIMITS } from '@bourse/protocol';
import { Alert, Button, Loader, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { refusalOf, useSecurityCenter, useSetUsername } from '../api.ts';
import { Frame } from './Frame.tsx';

// The server's rule (modules/accounts/identity.ts NAME): a letter, then letters, digits, _ . -
const NAME = new RegExp(
  `^[A-Za-z][A-Za-z0-9_.-]{${PROFILE_LIMITS.nameMin - 1},${PROFILE_LIMITS.nameMax - 1}}$`,
);

/** `/username`: set or change the account name (unique; once every 30 days after the first). */
export function UsernamePage() {
  const { t } = useTranslation('profile');
  const lang = useLang();
  const center = useSecurityCenter();
  const save = useSetUsername();
  const [name, setName] = useState('');
  const [invalid, setInvalid] = useState(false);
  const { nameMin: min, nameMax: max, nameChangeDays: days } = PROFILE_LIMITS;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = name.trim();
    if (!NAME.test(value)) {
      setInvalid(true);
      return;
    }
    save.mutate({ name: value });
  };

  const data = center.data;
  return (
    <Frame title={t('username.title')} subtitle={t('username.subtitle')} testId="username-page">
      {!data ? (
        <Loader size="sm" />
      ) : save.isSuccess ? (
        <Alert color="teal" variant="light" role="status" data-testid="username-done">
          {t('username.done')} <span translate="no">{save.data.name}</span>
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {data.name ? (
              <Text size="sm" data-testid="username-current">
                {t('username.current')} <span translate="no">{data.name}</span>
              </Text>
            ) : null}
            {data.name_change_at ? (
              <Alert color="yellow" variant="light" data-testid="username-wait">
                {t('username.nextChange', { date: formatDate(data.name_change_at, lang) })}
              </Alert>
            ) : null}
            {refusalOf(save.error) ? (
              <Alert color="yellow" variant="light" role="alert" data-testid="username-error">
                {refusalOf(save.error)}
              </Alert>
            ) : null}
            <TextInput
              label={t('username.label')}
              description={[t('username.rule', { min, max }), t('username.limit', { days })].join(
                lang === 'en' ? ' ' : '',
              )}
              value={name}
              maxLength={max}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              error={invalid ? t('username.rule', { min, max }) : undefined}
              onChange={(event) => {
                setName(event.currentTarget.value);
                setInvalid(false);
              }}
              data-testid="username-input"
            />
            <Button type="submit" size="md" loading={save.isPending} data-testid="username-submit">
              {t('username.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </Frame>
  );
}
