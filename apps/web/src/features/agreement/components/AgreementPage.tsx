import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const SECTIONS = [
  ['agreement.accountTitle', 'agreement.accountBody'],
  ['agreement.riskTitle', 'agreement.riskBody'],
  ['agreement.demoTitle', 'agreement.demoBody'],
  ['agreement.conductTitle', 'agreement.conductBody'],
  ['agreement.privacyTitle', 'agreement.privacyBody'],
  ['agreement.changesTitle', 'agreement.changesBody'],
] as const;

/** /agreement and /agrt: the user agreement the register form asks to accept. */
export function AgreementPage() {
  const { t } = useTranslation();
  return (
    <Paper
      component="article"
      withBorder
      radius="lg"
      maw={820}
      mx="auto"
      my={{ base: 'md', sm: 40 }}
      p={{ base: 'md', sm: 40 }}
      data-testid="agreement-page"
    >
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {t('agreement.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('agreement.version')}
          </Text>
        </Stack>
        <Text>{t('agreement.intro')}</Text>
        {SECTIONS.map(([title, body]) => (
          <Stack gap={6} key={title} component="section">
            <Title order={2} size="h4">
              {t(title)}
            </Title>
            <Text>{t(body)}</Text>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
