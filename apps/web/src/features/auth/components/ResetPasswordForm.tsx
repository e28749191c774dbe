import { Alert, Anchor, Button, Stack, Tabs } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePasswordRule } from '../../../api/publicConfig.ts';
import { type UpdatePasswordInput, useUpdatePassword } from '../api/updatePassword.ts';
import { useFieldErrorText } from '../hooks/useFieldErrorText.ts';
import { type IdentityMode, useIdentity } from '../hooks/useIdentity.ts';
import { checkCode, checkConfirm, checkPassword, collect, type Errors, hasErrors } from '../validation.ts';
import { CodeField } from './CodeField.tsx';
import { FormAlert, refusalOf } from './FormAlert.tsx';
import { IdentityFields } from './IdentityFields.tsx';
import { PasswordPair } from './PasswordPair.tsx';

type Field = 'code' | 'password' | 'password2';

/** Forgot password: a code (scene `reset`) to the account's email or phone, then a new password. */
export function ResetPasswordForm() {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const rule = usePasswordRule();
  const update = useUpdatePassword();
  const identity = useIdentity();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [password2, setPassword2] = useState('');
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [codeRefusal, setCodeRefusal] = useState<string | null>(null);

  const clear = (field: Field) => setErrors((current) => ({ ...current, [field]: undefined }));

  if (update.isSuccess) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" role="status" data-testid="reset-done">
          {t('auth.forget.done')}
        </Alert>
        <Button component={Link} to="/login" size="md" fullWidth data-testid="reset-to-login">
          {t('auth.forget.backToLogin')}
        </Button>
      </Stack>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = identity.resolve();
    const found = collect<Field>({
      code: checkCode(code),
      password: checkPassword(password, rule),
      password2: checkConfirm(password, password2),
    });
    setErrors(found);
    if (!target || hasErrors(found)) return;
    const input: UpdatePasswordInput = { account: target.account, code: code.trim(), password, password2 };
    if (target.area_code) input.area_code = target.area_code;
    setCodeRefusal(null);
    update.mutate(input);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Tabs
          value={identity.mode}
          onChange={(value) => identity.setMode((value as IdentityMode | null) ?? 'email')}
          keepMounted={false}
        >
          <Tabs.List grow aria-label={t('auth.register.tabsLabel')} mb="md">
            <Tabs.Tab value="email" data-testid="reset-tab-email">
              {t('auth.account.byEmail')}
            </Tabs.Tab>
            <Tabs.Tab value="phone" data-testid="reset-tab-phone">
              {t('auth.account.byPhone')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="email">
            <IdentityFields identity={identity} testIdPrefix="reset" />
          </Tabs.Panel>
          <Tabs.Panel value="phone">
            <IdentityFields identity={identity} testIdPrefix="reset" />
          </Tabs.Panel>
        </Tabs>
        <CodeField
          scene="reset"
          target={identity.resolve}
          value={code}
          onChange={(value) => {
            setCode(value);
            clear('code');
          }}
          error={errorText(errors.code)}
          onRefused={setCodeRefusal}
          testId="reset-code"
        />
        <PasswordPair
          password={password}
          onPassword={(value) => {
            setPassword(value);
            clear('password');
          }}
          confirm={password2}
          onConfirm={(value) => {
            setPassword2(value);
            clear('password2');
          }}
          passwordError={errorText(errors.password)}
          confirmError={errorText(errors.password2)}
          passwordLabel={t('auth.forget.newPassword')}
          confirmLabel={t('auth.forget.newPassword2')}
          testIdPrefix="reset"
        />
        <FormAlert message={codeRefusal ?? refusalOf(update.error)} testId="reset-error" />
        <Button type="submit" size="md" fullWidth loading={update.isPending} data-testid="reset-submit">
          {t('auth.forget.submit')}
        </Button>
        <Anchor component={Link} to="/login" size="sm" ta="center" data-testid="link-login">
          {t('auth.forget.backToLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}
