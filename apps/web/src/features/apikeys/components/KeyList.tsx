import type { ApiKeyData } from '@bourse/protocol';
import { Badge, Button, Code, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useApiKeys, useRevokeApiKey } from '../api.ts';

const STATE_COLOR = { active: 'teal', expired: 'gray', revoked: 'red' } as const;

/** `0a1b…9f`: enough of the public key to tell keys apart. */
function shortKey(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-6)}`;
}

function StateBadge({ k }: { k: ApiKeyData }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLOR[k.state]} variant="light" data-testid={`apikey-state-${k.id}`}>
      {t(`apiKeys.state.${k.state}`)}
    </Badge>
  );
}

function useKeyTexts() {
  const { t } = useTranslation();
  const lang = useLang();
  return {
    permission: (k: ApiKeyData) =>
      t(k.permission === 'trade' ? 'apiKeys.create.trade' : 'apiKeys.create.read'),
    ips: (k: ApiKeyData) => (k.ips.length ? k.ips.join(', ') : t('apiKeys.list.anyIp')),
    time: (ms: number | null) => (ms === null ? t('apiKeys.list.never') : formatDateTime(ms, lang)),
  };
}

/** Desktop: one row per key. */
function KeyTable({ items, onRevoke }: { items: ApiKeyData[]; onRevoke: (k: ApiKeyData) => void }) {
  const { t } = useTranslation();
  const text = useKeyTexts();
  return (
    <Table.ScrollContainer minWidth={900} visibleFrom="md">
      <Table verticalSpacing="sm" data-testid="apikeys-table">
        <Table.Thead>
          <Table.Tr>
            {(
              ['label', 'apiKey', 'permission', 'ips', 'state', 'created', 'expires', 'lastUsed'] as const
            ).map((c) => (
              <Table.Th key={c}>{t(`apiKeys.list.${c}`)}</Table.Th>
            ))}
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((k) => (
            <Table.Tr key={k.id} data-testid={`apikey-row-${k.id}`}>
              <Table.Td fw={500} translate="no">
                {k.label}
              </Table.Td>
              <Table.Td>
                <Code title={k.api_key} translate="no">
                  {shortKey(k.api_key)}
                </Code>
              </Table.Td>
              <Table.Td>{text.permission(k)}</Table.Td>
              <Table.Td
                maw={200}
                style={{ wordBreak: 'break-all' }}
                translate={k.ips.length ? 'no' : undefined}
              >
                {text.ips(k)}
              </Table.Td>
              <Table.Td>
                <StateBadge k={k} />
              </Table.Td>
              <Table.Td>{text.time(k.created_at)}</Table.Td>
              <Table.Td>{text.time(k.expires_at)}</Table.Td>
              <Table.Td>{text.time(k.last_used_at)}</Table.Td>
              <Table.Td>
                {k.state === 'active' && (
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => onRevoke(k)}
                    data-testid={`apikey-revoke-${k.id}`}
                  >
                    {t('apiKeys.list.revoke')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones and narrow screens: one card per key. */
function KeyCards({ items, onRevoke }: { items: ApiKeyData[]; onRevoke: (k: ApiKeyData) => void }) {
  const { t } = useTranslation();
  const text = useKeyTexts();
  const line = (label: string, value: string, verbatim = false) => (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right" style={{ wordBreak: 'break-all' }} translate={verbatim ? 'no' : undefined}>
        {value}
      </Text>
    </Group>
  );
  return (
    <Stack gap="sm" hiddenFrom="md" data-testid="apikeys-cards">
      {items.map((k) => (
        <Paper key={k.id} withBorder radius="md" p="sm" data-testid={`apikey-card-${k.id}`}>
          <Stack gap={6}>
            <Group justify="space-between">
              <Text fw={600} translate="no">
                {k.label}
              </Text>
              <StateBadge k={k} />
            </Group>
            {line(t('apiKeys.list.apiKey'), shortKey(k.api_key), true)}
            {line(t('apiKeys.list.permission'), text.permission(k))}
            {line(t('apiKeys.list.ips'), text.ips(k), k.ips.length > 0)}
            {line(t('apiKeys.list.expires'), text.time(k.expires_at))}
            {line(t('apiKeys.list.lastUsed'), text.time(k.last_used_at))}
            {k.revoked_by === 'staff' && k.revoke_reason && (
              <Text size="xs" c="red">
                {t('apiKeys.list.revokedByStaff', { reason: k.revoke_reason })}
              </Text>
            )}
            {k.state === 'active' && (
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => onRevoke(k)}
                data-testid={`apikey-revoke-card-${k.id}`}
              >
                {t('apiKeys.list.revoke')}
              </Button>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function RevokeModal({ target, onClose }: { target: ApiKeyData | null; onClose: () => void }) {
  const { t } = useTranslation();
  const revoke = useRevokeApiKey();
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title={t('apiKeys.revoke.title', { label: target?.label ?? '' })}
      centered
    >
      <Stack gap="md">
        <Text size="sm">{t('apiKeys.revoke.body')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('apiKeys.revoke.cancel')}
          </Button>
          <Button
            color="red"
            loading={revoke.isPending}
            onClick={() => target && revoke.mutate(target.id, { onSuccess: onClose })}
            data-testid="apikeys-revoke-confirm"
          >
            {t('apiKeys.revoke.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** My keys: count, table or cards, revoke with a confirmation. */
export function KeyList() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const [target, setTarget] = useState<ApiKeyData | null>(null);
  const items = keys.data?.items ?? [];
  const active = items.filter((k) => k.state === 'active').length;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="apikeys-list">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('apiKeys.list.title')}
          </Title>
          {keys.data && (
            <Text size="sm" c="dimmed" data-testid="apikeys-count">
              {t('apiKeys.list.count', { active, max: keys.data.max })}
            </Text>
          )}
        </Group>
        {keys.data && items.length === 0 && (
          <Text c="dimmed" size="sm" data-testid="apikeys-empty">
            {t('apiKeys.list.empty')}
          </Text>
        )}
        {items.length > 0 && (
          <>
            <KeyTable items={items} onRevoke={setTarget} />
            <KeyCards items={items} onRevoke={setTarget} />
          </>
        )}
      </Stack>
      <RevokeModal target={target} onClose={() => setTarget(null)} />
    </Paper>
  );
}
