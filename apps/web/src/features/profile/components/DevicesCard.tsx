import type { DeviceRow } from '@bourse/protocol';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { refusalOf, useDevices, useRevokeDevice, useRevokeOthers } from '../api.ts';

function Device({
  device,
  onRevoke,
  pending,
}: {
  device: DeviceRow;
  onRevoke: () => void;
  pending: boolean;
}) {
  const { t } = useTranslation('profile');
  const lang = useLang();
  return (
    <Paper withBorder radius="md" p="sm" data-testid="device-row" data-current={device.current ? '1' : '0'}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} size="sm" translate="no" data-testid="device-name">
              {device.browser === 'Other' && device.os === 'Other'
                ? t('devices.unknown')
                : `${device.browser} · ${device.os}`}
            </Text>
            {device.current ? (
              <Badge size="sm" variant="light" color="teal" data-testid="device-this">
                {t('devices.thisDevice')}
              </Badge>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            {t('devices.signedIn', { time: formatDateTime(device.created_at, lang) })} ·{' '}
            <span translate="no">{t('devices.ip', { ip: device.ip })}</span>
          </Text>
        </Stack>
        {device.current ? null : (
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={pending}
            onClick={onRevoke}
            data-testid="device-revoke"
          >
            {t('devices.revoke')}
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/** The signed-in devices: this one first and marked, the others each with a sign-out, and all at once. */
export function DevicesCard() {
  const { t } = useTranslation('profile');
  const devices = useDevices();
  const revoke = useRevokeDevice();
  const others = useRevokeOthers();
  const [done, setDone] = useState<string | null>(null);
  const list = [...(devices.data?.list ?? [])].sort((a, b) => Number(b.current) - Number(a.current));
  const hasOthers = list.some((d) => !d.current);
  const refused = refusalOf(revoke.error) ?? refusalOf(others.error);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="devices-card">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('devices.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('devices.intro')}
        </Text>
        {done ? (
          <Alert color="teal" variant="light" role="status" data-testid="devices-done">
            {done}
          </Alert>
        ) : null}
        {refused ? (
          <Alert color="yellow" variant="light" role="alert">
            {refused}
          </Alert>
        ) : null}
        {devices.isPending ? <Loader size="sm" /> : null}
        {list.map((device) => (
          <Device
            key={device.id}
            device={device}
            pending={revoke.isPending && revoke.variables?.id === device.id}
            onRevoke={() =>
              revoke.mutate({ id: device.id }, { onSuccess: () => setDone(t('devices.revoked')) })
            }
          />
        ))}
        {hasOthers ? (
          <Button
            variant="light"
            color="red"
            loading={others.isPending}
            onClick={() =>
              others.mutate(
                {},
                { onSuccess: (data) => setDone(t('devices.revokedOthers', { n: data.ended })) },
              )
            }
            data-testid="devices-revoke-others"
          >
            {t('devices.revokeOthers')}
          </Button>
        ) : devices.data ? (
          <Text size="sm" c="dimmed" data-testid="devices-none">
            {t('devices.none')}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
