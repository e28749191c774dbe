import type { FundModelId, FundOrderData } from '@bourse/protocol';
import { Button, Group, Loader, Pagination, Paper, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useEtfOrders } from '../api/orders.ts';
import { OrderCards, OrderTable } from './OrderViews.tsx';
import { RedeemConfirm } from './RedeemConfirm.tsx';

const PAGE_SIZE = 10;
const WIDE = '(min-width: 75em)';

/** My orders of one model: holdings, units, NAV, value, P&L; redeem with a confirmation. */
function EtfOrders({ modelId }: { modelId: FundModelId }) {
  const { t } = useTranslation('funds');
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const [page, setPage] = useState(1);
  const [redeeming, setRedeeming] = useState<FundOrderData | null>(null);
  const orders = useEtfOrders(modelId, page, PAGE_SIZE);
  const total = orders.data?.total ?? 0;
  const items = orders.data?.items ?? [];
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="etf-orders-page" data-model={modelId}>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t(`orders.title_${modelId}`)}
        </Title>
        <Button component={Link} to={`/etflow_buy?model=${modelId}`} size="sm" data-testid="etf-orders-buy">
          {t('orders.buy')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('noReturn')}
      </Text>
      {orders.isPending ? (
        <Loader />
      ) : items.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text c="dimmed" ta="center" data-testid="etf-orders-empty">
            {t('orders.empty')}
          </Text>
        </Paper>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {t('orders.total', { count: total })}
          </Text>
          {wide ? (
            <Paper withBorder radius="md" p="xs">
              <OrderTable orders={items} onRedeem={setRedeeming} />
            </Paper>
          ) : (
            <OrderCards orders={items} onRedeem={setRedeeming} />
          )}
          {total > PAGE_SIZE ? (
            <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} />
          ) : null}
        </>
      )}
      <RedeemConfirm order={redeeming} onClose={() => setRedeeming(null)} />
    </Stack>
  );
}

/** /etf_wdtg: my balanced ETF orders. */
export function BalancedOrdersPage() {
  return <EtfOrders modelId="balanced" />;
}

/** /etflow_wdtg: my low-risk ETF orders. */
export function LowRiskOrdersPage() {
  return <EtfOrders modelId="low_risk" />;
}
