import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePasswordRule } from '../../../api/publicConfig.ts';
import { useUpdatePassword } from '../api/updatePassword.ts';
import { useFieldErrorText } from '../hooks/useFieldErrorText.ts';
import {
  checkChanged,
  checkConfirm,
  checkOldPassword,
  checkPassword,
  collect,
  type Errors,
  hasErrors,
} from '../validation.ts';
import { FormAlert, refusalOf } from './FormAlert.tsx';
import { PasswordPair } from './PasswordPair.tsx';

type Field = 'old' | 'password' | 'password2';

/** Change the password (logged in): the server ends every other session, this one stays. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const rule = usePasswordRule();
  const update = useUpdatePassword();
  const [old, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [password2, setPassword2] = useState('');
  const [errors, setErrors] = useState<Errors<Field>>({});

  const clear = (field: Field) => setErrors((current) => ({ ...current, [field]: undefined }));

  if (update.isSuccess) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" role="status" data-testid="change-done">
          {t('auth.change.done')}
        </Alert>
        <Button
          component={Link}
          to="/setting"
          size="md"
          fullWidth
          variant="light"
          data-testid="change-to-settings"
        >
          {t('auth.change.toSettings')}
        </Button>
      </Stack>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = collect<Field>({
      old: checkOldPassword(old),
      password: checkPassword(password, rule) ?? checkChanged(old, password),
      password2: checkConfirm(password, password2),
    });
    setErrors(found);
    if (hasErrors(found)) return;
    update.mutate({ old_password: old, password, password2 });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormAlert message={refusalOf(update.error)} testId="change-error" />
        <PasswordInput
          label={t('auth.change.old')}
          autoComplete="current-password"
          value={old}
          onChange={(event) => {
            setOld(event.currentTarget.value);
            clear('old');
          }}
          error={errorText(errors.old)}
          data-testid="change-old-password"
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
          testIdPrefix="change"
        />
        <Button type="submit" size="md" fullWidth loading={update.isPending} data-testid="change-submit">
          {t('auth.change.submit')}
        </Button>
      </Stack>
    </form>
  );
}
