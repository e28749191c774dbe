import { Alert, Button, Card, Code, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type Platform, platformOf, useInstallPrompt } from '../hooks/useInstallPrompt.ts';
import { QrCode } from './QrCode.tsx';

const PLATFORMS: readonly Platform[] = ['ios', 'android', 'desktop'];

function Steps({ platform, mine }: { platform: Platform; mine: boolean }) {
  const { t } = useTranslation('agreements');
  return (
    <Card
      withBorder
      radius="md"
      p="md"
      data-testid={`download-steps-${platform}`}
      data-mine={mine ? '1' : '0'}
      style={mine ? { borderColor: 'var(--mantine-color-blue-filled)' } : undefined}
    >
      <Title order={3} size="h5" mb="xs">
        {t(`download.${platform}.title`)}
      </Title>
      <List type="ordered" spacing={4} size="sm">
        <List.Item>{t(`download.${platform}.step1`)}</List.Item>
        <List.Item>{t(`download.${platform}.step2`)}</List.Item>
        <List.Item>{t(`download.${platform}.step3`)}</List.Item>
      </List>
    </Card>
  );
}

function InstallPanel() {
  const { t } = useTranslation('agreements');
  const { state, install } = useInstallPrompt();
  if (state === 'installed')
    return (
      <Alert color="green" data-testid="download-installed">
        {t('download.installed')}
      </Alert>
    );
  if (state === 'prompt' || state === 'installing')
    return (
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('download.promptNote')}</Text>
        <Button
          onClick={() => void install()}
          loading={state === 'installing'}
          data-testid="download-install"
        >
          {t('download.install')}
        </Button>
      </Stack>
    );
  return (
    <Text size="sm" c="dimmed" data-testid="download-manual">
      {state === 'dismissed' ? t('download.dismissed') : t('download.manualNote')}
    </Text>
  );
}

/**
 * /downLoad (open without login): install the web app — the browser's own install dialog where it
 * offers one, the steps per platform (the visitor's first), and a QR code to the site for a phone.
 */
export function DownloadPage(props: { device?: { userAgent: string; maxTouchPoints: number } }) {
  const { t } = useTranslation('agreements');
  const url = `${window.location.origin}/`;
  const device = props.device ?? navigator;
  const mine = platformOf(device.userAgent, device.maxTouchPoints ?? 0);
  const ordered = [mine, ...PLATFORMS.filter((p) => p !== mine)];
  return (
    <Stack
      gap="lg"
      my={{ base: 'md', sm: 40 }}
      maw={1200}
      mx="auto"
      data-testid="download-page"
      data-platform={mine}
    >
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('download.title')}
        </Title>
        <Text>{t('download.lead')}</Text>
      </Stack>
      <InstallPanel />
      <Title order={2} size="h4">
        {t('download.stepsTitle')}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {ordered.map((platform) => (
          <Steps key={platform} platform={platform} mine={platform === mine} />
        ))}
      </SimpleGrid>
      <Card withBorder radius="md" p="md">
        <Stack gap="xs" align="center">
          <Title order={2} size="h5">
            {t('download.qrTitle')}
          </Title>
          <QrCode text={url} label={t('download.qrAlt', { url })} failedText={t('download.qrFailed')} />
          <Code data-testid="download-url">{url}</Code>
          <Text size="sm" c="dimmed" ta="center">
            {t('download.qrLead')}
          </Text>
        </Stack>
      </Card>
      <Alert color="yellow" data-testid="download-safety">
        {t('download.safety')}
      </Alert>
    </Stack>
  );
}
