import type { AdminC2cOrderData } from '@bourse/protocol';
import { Button, Card, Group, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, Figure } from '../../app/ui.tsx';
import { PAGE_SIZE, useC2cDisputes } from './api.ts';
import { DisputeView } from './DisputeView.tsx';
import { DECIDE_PERMISSION, NoPermission, useC2cStaff } from './parts.tsx';

function DisputeRow({ o, onOpen }: { o: AdminC2cOrderData; onOpen: () => void }) {
  const { t } = useTranslation('adminC2c');
  const lang = useLang();
  const d = o.dispute;
  return (
    <Table.Tr
      data-testid="c2c-dispute"
      data-order={o.order_id}
      data-awaiting={o.awaiting_second ? 'true' : 'false'}
    >
      <Table.Td>
        <Figure>{o.order_id}</Figure>
        <Text size="xs" c="dimmed">
          {t(`side.${o.side}`)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{o.merchant_name}</Text>
        <Text size="xs" c="dimmed">
          {o.merchant_uid ?? '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Figure>{o.customer_uid ?? '—'}</Figure>
      </Table.Td>
      <Table.Td>
        <Amount value={o.amount} currency={o.coin} suffix />
      </Table.Td>
      <Table.Td>
        <Amount value={o.fiat_amount} currency={o.fiat} suffix />
      </Table.Td>
      <Table.Td>
        {d ? (
          <>
            <Text size="sm">{t(`disputeReason.${d.reason}`)}</Text>
            <Text size="xs" c="dimmed">
              {t('disputes.openedBy', { by: t(`party.${d.by}`), time: formatTime(d.at, lang) })}
            </Text>
          </>
        ) : (
          '—'
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(d?.respond_by, lang)}</Table.Td>
      <Table.Td>
        {o.awaiting_second && o.first_decision ? (
          <Text size="xs" c="orange" data-testid="c2c-dispute-awaiting">
            {t('disputes.firstDecision', {
              outcome: t(`outcome.${o.first_decision.outcome}`),
              who: o.first_decision.by,
            })}
          </Text>
        ) : (
          <Text size="xs" c="dimmed">
            {t('disputes.undecided')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Button size="compact-xs" variant="light" onClick={onOpen} data-testid="c2c-dispute-open">
          {t('disputes.open')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

const HEADS = [
  'number',
  'merchant',
  'customer',
  'amount',
  'fiat',
  'reason',
  'respondBy',
  'decision',
  'actions',
] as const;

/** The queue of disputed orders, oldest question first as the server sends them; the dispute view. */
export default function DisputesScreen() {
  const { t } = useTranslation('adminC2c');
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<string | null>(null);
  const disputes = useC2cDisputes(page);
  const { canDecide } = useC2cStaff();
  const items = disputes.data?.items ?? [];
  const total = disputes.data?.total ?? 0;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('disputes.title')}</Title>
        <Button variant="default" size="xs" onClick={() => void disputes.refetch()}>
          {t('common.refresh')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('disputes.intro')}
      </Text>
      {!canDecide ? <NoPermission permission={DECIDE_PERMISSION} /> : null}
      <ErrorNote error={disputes.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={1200}>
            <Table fz="sm" verticalSpacing={6} striped data-testid="c2c-disputes">
              <Table.Thead>
                <Table.Tr>
                  {HEADS.map((h) => (
                    <Table.Th key={h}>{t(`disputes.${h}`)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((o) => (
                  <DisputeRow key={o.order_id} o={o} onOpen={() => setShown(o.order_id)} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed">
            {t('orders.total', { count: total })}
          </Text>
          <Pagination
            total={Math.max(1, Math.ceil(total / PAGE_SIZE))}
            value={page}
            onChange={setPage}
            size="sm"
          />
        </Group>
      </Card>
      <DisputeView orderId={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}
