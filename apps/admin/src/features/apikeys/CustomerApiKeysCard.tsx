import type { ApiKeyData, ApiKeysData } from '@bourse/protocol';
import { Badge, Button, Card, Code, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, ReasonDialog } from '../../app/ui.tsx';

const STATE_COLOR = { active: 'green', expired: 'gray', revoked: 'red' } as const;

/** A customer's API keys on the staff customer detail (`customers.read`); revoke with a reason (`customers.disable`, audited). */
export function CustomerApiKeysCard({ customerId, canRevoke }: { customerId: string; canRevoke: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const client = useQueryClient();
  const [target, setTarget] = useState<ApiKeyData | null>(null);
  const keys = useQuery({
    queryKey: ['customerApiKeys', customerId],
    queryFn: () => api.get<ApiKeysData>('customerApiKeys', { customer_id: customerId }),
  });
  const items = keys.data?.items ?? [];
  const time = (ms: number | null) => (ms === null ? '—' : formatTime(ms, lang));
  return (
    <Card withBorder data-testid="customer-apikeys">
      <Title order={4} mb="sm">
        {t('apiKeys.title')}
      </Title>
      <ErrorNote error={keys.error} />
      {keys.data && items.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('apiKeys.none')}
        </Text>
      ) : null}
      {items.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('apiKeys.label')}</Table.Th>
                <Table.Th>{t('apiKeys.key')}</Table.Th>
                <Table.Th>{t('apiKeys.permission')}</Table.Th>
                <Table.Th>{t('apiKeys.ips')}</Table.Th>
                <Table.Th>{t('apiKeys.state')}</Table.Th>
                <Table.Th>{t('apiKeys.created')}</Table.Th>
                <Table.Th>{t('apiKeys.expires')}</Table.Th>
                <Table.Th>{t('apiKeys.lastUsed')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td>{k.label}</Table.Td>
                  <Table.Td>
                    <Code>{`${k.api_key.slice(0, 8)}…${k.api_key.slice(-6)}`}</Code>
                  </Table.Td>
                  <Table.Td>{t(`apiKeys.permissions.${k.permission}`)}</Table.Td>
                  <Table.Td>{k.ips.length ? k.ips.join(', ') : t('apiKeys.anyIp')}</Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLOR[k.state]} variant="light">
                      {t(`apiKeys.states.${k.state}`)}
                    </Badge>
                    {k.revoke_reason ? (
                      <Text size="xs" c="dimmed">
                        {k.revoke_reason}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{time(k.created_at)}</Table.Td>
                  <Table.Td>{time(k.expires_at)}</Table.Td>
                  <Table.Td>{time(k.last_used_at)}</Table.Td>
                  <Table.Td>
                    {canRevoke && k.state === 'active' ? (
                      <Button size="xs" color="red" variant="light" onClick={() => setTarget(k)}>
                        {t('apiKeys.revoke')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <ReasonDialog
        opened={target !== null}
        title={t('apiKeys.revokeTitle', { label: target?.label ?? '' })}
        text={t('apiKeys.revokeText')}
        confirmLabel={t('apiKeys.revoke')}
        danger
        onClose={() => setTarget(null)}
        onSubmit={async (reason) => {
          if (!target) return;
          await api.post('revokeApiKey', { id: target.id, reason });
          setTarget(null);
          await client.invalidateQueries({ queryKey: ['customerApiKeys', customerId] });
        }}
      />
    </Card>
  );
}
