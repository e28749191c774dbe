import type { CustomerDetail } from '@bourse/protocol';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { Amount, ErrorNote, Figure, ReasonDialog } from '../../app/ui.tsx';
import { AdjustmentsTable } from '../adjustments/AdjustmentsTable.tsx';
import { CustomerApiKeysCard } from '../apikeys/CustomerApiKeysCard.tsx';
import { SecurityAnswerCheck } from '../profile/SecurityAnswerCheck.tsx';
import { CustomerRatingCard } from '../suitability/CustomerRatingCard.tsx';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {value || '—'}
      </Text>
    </Stack>
  );
}

/** One customer: profile, balances from the ledger, recent journal, adjustments; disable/enable login. */
export default function CustomerDetailScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const me = useStaffMe();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'disable' | 'enable' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const detail = useQuery({
    queryKey: ['getCustomer', id],
    queryFn: () => api.get<CustomerDetail>('getCustomer', { customer_id: id }),
    enabled: id !== '',
  });
  const d = detail.data;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>
          {d ? t('customers.detail.title', { uid: d.profile.uid }) : t('customers.title')}
        </Title>
        <Button component={Link} to="/customers" variant="subtle" size="xs">
          {t('customers.detail.back')}
        </Button>
      </Group>
      <ErrorNote error={detail.error} />
      {notice ? (
        <Text c="green" size="sm" data-testid="customer-notice">
          {notice}
        </Text>
      ) : null}
      {d ? (
        <>
          <Card withBorder>
            <Group justify="space-between" mb="sm">
              <Group gap="xs">
                <Title order={4}>{t('customers.detail.profile')}</Title>
                <Badge
                  color={d.profile.status === 'active' ? 'green' : 'red'}
                  variant="light"
                  data-testid="customer-status"
                >
                  {t(`customers.status.${d.profile.status}`)}
                </Badge>
                <Badge variant="outline">
                  {d.profile.is_demo ? t('customers.demo') : t('customers.real')}
                </Badge>
              </Group>
              <Group gap="xs">
                {hasPermission(me.data, 'adjustments.create') && !d.profile.is_demo ? (
                  <Button
                    component={Link}
                    to={`/adjustments?customer=${encodeURIComponent(d.profile.customer_id)}`}
                    size="xs"
                    variant="light"
                  >
                    {t('customers.detail.adjust')}
                  </Button>
                ) : null}
                {hasPermission(me.data, 'customers.disable') ? (
                  d.profile.status === 'active' ? (
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      onClick={() => setDialog('disable')}
                      data-testid="customer-disable"
                    >
                      {t('customers.detail.disable')}
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => setDialog('enable')}
                      data-testid="customer-enable"
                    >
                      {t('customers.detail.enable')}
                    </Button>
                  )
                ) : null}
              </Group>
            </Group>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
              <Field label={t('customers.uid')} value={d.profile.uid} />
              <Field label="ID" value={d.profile.customer_id} />
              <Field label={t('customers.email')} value={d.profile.email} />
              <Field label={t('customers.phone')} value={d.profile.phone} />
              <Field label={t('customers.name')} value={d.profile.name} />
              <Field label={t('customers.created')} value={formatTime(d.profile.created_at, lang)} />
              <Field label={t('customers.sessions')} value={String(d.profile.active_sessions)} />
            </SimpleGrid>
          </Card>

          {!d.profile.is_demo ? <CustomerRatingCard customerId={d.profile.customer_id} /> : null}
          {/* Support's security-answer check (profile feature, permission customers.verify). */}
          {hasPermission(me.data, 'customers.verify') && !d.profile.is_demo ? (
            <SecurityAnswerCheck customerId={d.profile.customer_id} />
          ) : null}

          {/* API keys for bots (modules/apikeys): read with customers.read, revoke with customers.disable. */}
          {!d.profile.is_demo ? (
            <CustomerApiKeysCard
              customerId={d.profile.customer_id}
              canRevoke={hasPermission(me.data, 'customers.disable')}
            />
          ) : null}

          <Card withBorder>
            <Title order={4} mb="sm">
              {t('customers.detail.balances')}
            </Title>
            {d.balances.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('customers.detail.noBalances')}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={420}>
                <Table data-testid="customer-balances">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('customers.detail.accountType')}</Table.Th>
                      <Table.Th>{t('customers.detail.currency')}</Table.Th>
                      <Table.Th ta="right">{t('customers.detail.available')}</Table.Th>
                      <Table.Th ta="right">{t('customers.detail.frozen')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.balances.map((b) => (
                      <Table.Tr key={`${b.book}-${b.account_type}-${b.currency}`}>
                        <Table.Td>
                          {
                            t(`adjustments.accountTypes.${b.account_type}` as never, {
                              defaultValue: b.account_type,
                            }) as string
                          }
                          {b.book === 'demo' ? ` (${t('customers.demo')})` : ''}
                        </Table.Td>
                        <Table.Td>{b.currency}</Table.Td>
                        <Table.Td ta="right">
                          <Amount value={b.available} currency={b.currency} />
                        </Table.Td>
                        <Table.Td ta="right">
                          <Amount value={b.frozen} currency={b.currency} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Card>

          <Card withBorder>
            <Title order={4} mb="sm">
              {t('customers.detail.journal')}
            </Title>
            {d.journal.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('customers.detail.noJournal')}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={760}>
                <Table data-testid="customer-journal">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('common.time')}</Table.Th>
                      <Table.Th>{t('customers.detail.entryReason')}</Table.Th>
                      <Table.Th>{t('customers.detail.accountType')}</Table.Th>
                      <Table.Th ta="right">{t('customers.detail.amount')}</Table.Th>
                      <Table.Th>{t('customers.detail.memo')}</Table.Th>
                      <Table.Th>{t('customers.detail.entry')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.journal.map((j) => (
                      <Table.Tr key={`${j.entry_id}-${j.account_type}-${j.currency}-${j.bucket}`}>
                        <Table.Td>
                          <Figure>{formatTime(j.created_at, lang)}</Figure>
                        </Table.Td>
                        <Table.Td>{j.reason}</Table.Td>
                        <Table.Td>
                          {j.account_type} · {j.bucket}
                        </Table.Td>
                        <Table.Td ta="right">
                          <Amount value={j.amount} currency={j.currency} signed suffix />
                        </Table.Td>
                        <Table.Td>{j.memo ?? ''}</Table.Td>
                        <Table.Td>
                          <Text size="xs" c="dimmed" ff="monospace">
                            {j.entry_id}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Card>

          {d.adjustments.length > 0 ? (
            <Card withBorder>
              <Title order={4} mb="sm">
                {t('customers.detail.adjustments')}
              </Title>
              <AdjustmentsTable list={d.adjustments} names={d.staff_names} />
            </Card>
          ) : null}

          <ReasonDialog
            opened={dialog !== null}
            title={
              dialog === 'disable'
                ? t('customers.detail.disableTitle', { uid: d.profile.uid })
                : t('customers.detail.enableTitle', { uid: d.profile.uid })
            }
            text={dialog === 'disable' ? t('customers.detail.disableText') : undefined}
            confirmLabel={dialog === 'disable' ? t('customers.detail.disable') : t('customers.detail.enable')}
            danger={dialog === 'disable'}
            onClose={() => setDialog(null)}
            onSubmit={async (reason) => {
              const call = dialog === 'disable' ? 'disableCustomer' : 'enableCustomer';
              const answer = await api.post<{ ended_sessions: number }>(call, { customer_id: id, reason });
              setNotice(
                dialog === 'disable'
                  ? t('customers.detail.disabledDone', { count: answer.ended_sessions })
                  : t('customers.detail.enabledDone'),
              );
              await queryClient.invalidateQueries({ queryKey: ['getCustomer', id] });
            }}
          />
        </>
      ) : null}
    </Stack>
  );
}
