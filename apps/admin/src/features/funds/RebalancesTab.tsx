import { bpsPercentText } from '@bourse/money';
import type { AdminFundRebalanceData } from '@bourse/protocol';
import { Pagination, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, Figure } from '../../app/ui.tsx';
import { useRebalances } from './api.ts';

const weights = (list: AdminFundRebalanceData['before'] | null) =>
  list ? list.map((w) => `${w.asset} ${bpsPercentText(w.weight_bps)}%`).join(' · ') : '—';

/** Every rebalance: the drift that started it, the weights before and after, and each trade. */
export function RebalancesTab() {
  const { t } = useTranslation('adminFunds');
  const lang = useLang();
  const [page, setPage] = useState(1);
  const list = useRebalances(page);
  const total = list.data?.total ?? 0;
  return (
    <Stack>
      <ErrorNote error={list.error} />
      <Table.ScrollContainer minWidth={1000}>
        <Table fz="sm" verticalSpacing="xs" data-testid="funds-rebalances-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('rebalances.started')}</Table.Th>
              <Table.Th>{t('rebalances.order')}</Table.Th>
              <Table.Th ta="right">{t('rebalances.drift')}</Table.Th>
              <Table.Th>{t('rebalances.before')}</Table.Th>
              <Table.Th>{t('rebalances.after')}</Table.Th>
              <Table.Th>{t('rebalances.trades')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(list.data?.items ?? []).map((r) => (
              <Table.Tr key={r.rebalance_id} data-testid="funds-rebalance-row">
                <Table.Td>
                  <Figure>{formatTime(r.started_at, lang)}</Figure>
                </Table.Td>
                <Table.Td>
                  <Figure>{r.order_id}</Figure>
                </Table.Td>
                <Table.Td ta="right">
                  <Figure>{bpsPercentText(r.drift_bps)}%</Figure>
                </Table.Td>
                <Table.Td>{weights(r.before)}</Table.Td>
                <Table.Td>{weights(r.after)}</Table.Td>
                <Table.Td>
                  <Stack gap={0}>
                    {r.trades.map((l) => (
                      <Text size="xs" key={`${l.asset}-${l.side}-${l.at}`}>
                        {t('rebalances.trade', {
                          side: t(`rebalances.sides.${l.side}`),
                          filled: l.filled,
                          quantity: l.quantity,
                          asset: l.asset,
                          value: l.value,
                          fee: l.fee,
                          state: t(`rebalances.legStates.${l.state}`),
                        })}
                      </Text>
                    ))}
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total === 0 && !list.isPending ? <Text c="dimmed">{t('rebalances.empty')}</Text> : null}
      {total > 20 ? <Pagination total={Math.ceil(total / 20)} value={page} onChange={setPage} /> : null}
    </Stack>
  );
}
