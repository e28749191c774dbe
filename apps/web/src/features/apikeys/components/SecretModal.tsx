import { CopyField } from '@bourse/ui';
import { Alert, Button, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The new key and its secret, shown once, each with a copy button. */
export function SecretModal({
  created,
  onClose,
}: {
  created: { apiKey: string; secret: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={created !== null}
      onClose={onClose}
      title={t('apiKeys.secret.title')}
      closeOnClickOutside={false}
      centered
      size="lg"
      data-testid="apikeys-secret-modal"
    >
      {created && (
        <Stack gap="md">
          <Alert color="yellow" variant="light">
            {t('apiKeys.secret.warning')}
          </Alert>
          <CopyField
            label={t('apiKeys.secret.apiKey')}
            value={created.apiKey}
            copyLabel={t('apiKeys.secret.copy')}
            copiedLabel={t('apiKeys.secret.copied')}
            testId="apikeys-new-key"
            mono
          />
          <CopyField
            label={t('apiKeys.secret.secret')}
            value={created.secret}
            copyLabel={t('apiKeys.secret.copy')}
            copiedLabel={t('apiKeys.secret.copied')}
            testId="apikeys-new-secret"
            mono
          />
          <Button onClick={onClose} data-testid="apikeys-secret-done">
            {t('apiKeys.secret.done')}
          </Button>
        </Stack>
      )}
    </Modal>
  );
}
