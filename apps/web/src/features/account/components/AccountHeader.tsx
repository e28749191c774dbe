import { CopyField } from '@bourse/ui';
import { Avatar, Badge, Button, Divider, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { displayName, useInfo } from '../../../api/info.ts';
import { formatDateTime, toMs } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';

/** The user-centre header: who is logged in, whether it is a demo, and the codes to share. */
export function AccountHeader() {
  const { t } = useTranslation();
  const lang = useLang();
  const info = useInfo();

  if (info.isPending) {
    return (
      <Paper withBorder radius="lg" p="lg" data-testid="account-header-loading">
        <Group gap="md" mb="lg">
          <Skeleton circle height={56} />
          <Stack gap={8} style={{ flex: 1 }}>
            <Skeleton height={16} width="50%" />
            <Skeleton height={12} width="30%" />
          </Stack>
        </Group>
        <Stack gap="md">
          <Skeleton height={36} />
          <Skeleton height={36} />
          <Skeleton height={36} />
        </Stack>
      </Paper>
    );
  }

  if (info.isError) {
    return (
      <Paper withBorder radius="lg" p="lg" data-testid="account-header-error">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('account.loadFailed')}</Text>
          <Button variant="light" onClick={() => void info.refetch()}>
            {t('account.retry')}
          </Button>
        </Stack>
      </Paper>
    );
  }

  const data = info.data;
  const display = displayName(data);
  const copyLabel = (label: string) => t('ui.copy', { label });

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="account-header">
      <Group gap="md" wrap="nowrap" mb="md">
        <Avatar size={56} radius="xl" color="brand">
          {display.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack gap={4} miw={0}>
          <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }} data-testid="account-name">
            {display}
          </Title>
          {data.is_demo === 1 ? (
            <Group gap={6}>
              <Badge color="orange" variant="filled" data-testid="account-demo-badge">
                {t('account.demo')}
              </Badge>
              {data.demo_expires_at ? (
                <Text size="xs" c="dimmed" data-testid="account-demo-expiry">
                  {t('account.demoUntil', { time: formatDateTime(toMs(data.demo_expires_at), lang) })}
                </Text>
              ) : null}
            </Group>
          ) : (
            <Badge color="teal" variant="light" data-testid="account-real-badge">
              {t('account.real')}
            </Badge>
          )}
        </Stack>
      </Group>
      <Divider mb="md" />
      <Stack gap="md">
        <CopyField
          label={t('account.uid')}
          value={data.uid}
          copyLabel={copyLabel(t('account.uid'))}
          copiedLabel={t('ui.copied')}
          testId="account-uid"
          mono
        />
        <CopyField
          label={t('account.invitationCode')}
          value={data.invitation_code}
          copyLabel={copyLabel(t('account.invitationCode'))}
          copiedLabel={t('ui.copied')}
          testId="account-invitation-code"
          mono
        />
        <CopyField
          label={t('account.inviteLink')}
          value={data.invite_link}
          copyLabel={copyLabel(t('account.inviteLink'))}
          copiedLabel={t('ui.copied')}
          testId="account-invite-link"
        />
      </Stack>
    </Paper>
  );
}
