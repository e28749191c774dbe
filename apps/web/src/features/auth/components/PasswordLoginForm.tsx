import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLang } from '../../../lib/i18n.ts';
import { type UserLoginInput, useUserLogin } from '../api/userLogin.ts';
import { defaultCountry } from '../hooks/useCountries.ts';
import { useFieldErrorText } from '../hooks/useFieldErrorText.ts';
import { useSignedIn } from '../hooks/useSignedIn.ts';
import {
  checkLoginAccount,
  checkLoginPassword,
  collect,
  type Errors,
  hasErrors,
  looksLikePhone,
  parsePhone,
} from '../validation.ts';
import { CountrySelect } from './CountrySelect.tsx';
import { FormAlert, refusalOf } from './FormAlert.tsx';

/** Log in by account name, phone or email and the password. */
export function PasswordLoginForm() {
  const { t } = useTranslation();
  const lang = useLang();
  const errorText = useFieldErrorText();
  const signedIn = useSignedIn();
  const login = useUserLogin();
  const [account, setAccount] = useState('');
  const [country, setCountry] = useState(() => defaultCountry(lang));
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors<'account' | 'password'>>({});
  // A national phone number needs its country; with a leading + the number says it.
  const needsCountry = looksLikePhone(account) && !account.trim().startsWith('+');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = collect({
      account: checkLoginAccount(account, country),
      password: checkLoginPassword(password),
    });
    setErrors(found);
    if (hasErrors(found)) return;
    const input: UserLoginInput = { account: account.trim(), password };
    const phone = needsCountry ? parsePhone(account, country) : null;
    if (phone) {
      input.account = phone.national;
      input.area_code = phone.areaCode;
    }
    login.mutate(input, { onSuccess: (data) => signedIn(data.token, t('auth.login.welcome')) });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormAlert message={refusalOf(login.error)} testId="login-error" />
        <TextInput
          label={t('auth.login.account')}
          description={t('auth.login.accountHint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          autoComplete="username"
          value={account}
          onChange={(event) => {
            setAccount(event.currentTarget.value);
            setErrors((current) => ({ ...current, account: undefined }));
          }}
          error={errorText(errors.account)}
          data-testid="login-account"
        />
        {needsCountry ? <CountrySelect value={country} onChange={setCountry} testId="login-country" /> : null}
        <PasswordInput
          label={t('auth.password.label')}
          autoComplete="current-password"
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            setErrors((current) => ({ ...current, password: undefined }));
          }}
          error={errorText(errors.password)}
          data-testid="login-password"
        />
        <Group justify="flex-end">
          <Anchor component={Link} to="/forgetpwd" size="sm" data-testid="link-forgot">
            {t('auth.login.forgot')}
          </Anchor>
        </Group>
        <Button type="submit" size="md" fullWidth loading={login.isPending} data-testid="login-submit">
          {t('auth.login.submit')}
        </Button>
      </Stack>
    </form>
  );
}
