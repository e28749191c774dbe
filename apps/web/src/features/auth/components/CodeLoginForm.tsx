import { Button, SegmentedControl, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type UserLoginInput, useUserLogin } from '../api/userLogin.ts';
import { useFieldErrorText } from '../hooks/useFieldErrorText.ts';
import { type IdentityMode, useIdentity } from '../hooks/useIdentity.ts';
import { useSignedIn } from '../hooks/useSignedIn.ts';
import type { FieldError } from '../validation.ts';
import { checkCode } from '../validation.ts';
import { CodeField } from './CodeField.tsx';
import { FormAlert, refusalOf } from './FormAlert.tsx';
import { IdentityFields } from './IdentityFields.tsx';

/** Log in with a code sent to the account's email or phone (scene `login`). */
export function CodeLoginForm() {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const signedIn = useSignedIn();
  const login = useUserLogin();
  const identity = useIdentity();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<FieldError | undefined>();
  const [codeRefusal, setCodeRefusal] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = identity.resolve();
    const badCode = checkCode(code);
    setCodeError(badCode ?? undefined);
    if (!target || badCode) return;
    const input: UserLoginInput = { account: target.account, code: code.trim() };
    if (target.area_code) input.area_code = target.area_code;
    setCodeRefusal(null);
    login.mutate(input, { onSuccess: (data) => signedIn(data.token, t('auth.login.welcome')) });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('auth.login.codeHint')}
        </Text>
        <FormAlert message={codeRefusal ?? refusalOf(login.error)} testId="login-error" />
        <SegmentedControl
          fullWidth
          value={identity.mode}
          onChange={(value) => identity.setMode(value as IdentityMode)}
          aria-label={t('auth.login.tabCode')}
          data={[
            {
              value: 'email',
              label: <span data-testid="login-code-by-email">{t('auth.account.byEmail')}</span>,
            },
            {
              value: 'phone',
              label: <span data-testid="login-code-by-phone">{t('auth.account.byPhone')}</span>,
            },
          ]}
        />
        <IdentityFields identity={identity} testIdPrefix="login-code" />
        <CodeField
          scene="login"
          target={identity.resolve}
          value={code}
          onChange={(value) => {
            setCode(value);
            setCodeError(undefined);
          }}
          error={errorText(codeError)}
          onRefused={setCodeRefusal}
          testId="login-code"
        />
        <Button type="submit" size="md" fullWidth loading={login.isPending} data-testid="login-submit">
          {t('auth.login.submit')}
        </Button>
      </Stack>
    </form>
  );
}
