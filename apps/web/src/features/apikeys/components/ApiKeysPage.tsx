import { Grid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateKeyForm } from './CreateKeyForm.tsx';
import { KeyList } from './KeyList.tsx';
import { SecretModal } from './SecretModal.tsx';

/** /botKeys: create a key (the secret shown once), list and revoke (issue 21). */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const [created, setCreated] = useState<{ apiKey: string; secret: string } | null>(null);
  return (
    <Stack gap="lg" py={{ base: 'md', sm: 40 }} data-testid="apikeys-page">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('apiKeys.title')}
        </Title>
        <Text c="dimmed" size="sm" maw={760}>
          {t('apiKeys.intro')}
        </Text>
      </Stack>
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <CreateKeyForm onCreated={setCreated} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <KeyList />
        </Grid.Col>
      </Grid>
      <SecretModal created={created} onClose={() => setCreated(null)} />
    </Stack>
  );
}
