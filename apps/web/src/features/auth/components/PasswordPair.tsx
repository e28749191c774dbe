import { PasswordInput, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePasswordRule } from '../../../api/publicConfig.ts';

/** New password and its confirmation, with the length rule shown before the server refuses. */
export function PasswordPair({
  password,
  onPassword,
  confirm,
  onConfirm,
  passwordError,
  confirmError,
  passwordLabel,
  confirmLabel,
  testIdPrefix,
}: {
  password: string;
  onPassword: (value: string) => void;
  confirm: string;
  onConfirm: (value: string) => void;
  passwordError: string | undefined;
  confirmError: string | undefined;
  passwordLabel: string;
  confirmLabel: string;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const rule = usePasswordRule();
  return (
    <Stack gap="md">
      <PasswordInput
        label={passwordLabel}
        description={
          <span data-testid={`${testIdPrefix}-password-rule`}>{t('auth.password.rule', rule)}</span>
        }
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        autoComplete="new-password"
        value={password}
        onChange={(event) => onPassword(event.currentTarget.value)}
        error={passwordError}
        data-testid={`${testIdPrefix}-password`}
      />
      <PasswordInput
        label={confirmLabel}
        autoComplete="new-password"
        value={confirm}
        onChange={(event) => onConfirm(event.currentTarget.value)}
        error={confirmError}
        data-testid={`${testIdPrefix}-password2`}
      />
    </Stack>
  );
}
