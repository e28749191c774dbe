import type {
  ContractCloseData,
  ContractFundingData,
  ContractOrderData,
  ContractPositionData,
} from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useCancelContractOrder } from '../api.ts';
import {
  ContractLots,
  ContractPrice,
  Pnl,
  SideSymbol,
  StatusBadge,
  Time,
  Usdt,
  useSymbolSideColumns,
} from './bits.tsx';
import { type Column, DataList } from './DataList.tsx';
import { PriceSource } from './PriceSource.tsx';

type ListProps<T> = { items: readonly T[] | undefined; loading: boolean };

const ORDER_COLOR = { pending: 'yellow', filled: 'teal', cancelled: 'gray' } as const;
const POSITION_COLOR = { open: 'blue', closed: 'gray', liquidated: 'red', delivered: 'violet' } as const;

function CancelOrder({ order }: { order: ContractOrderData }) {
  const { t } = useTranslation('contract');
  const cancel = useCancelContractOrder();
  if (order.status !== 'pending') return null;
  return (
    <Button
      size="compact-xs"
      variant="light"
      color="red"
      loading={cancel.isPending}
      onClick={() =>
        cancel.mutate(
          { order_id: order.order_id },
          {
            onSuccess: () => notifications.show({ color: 'teal', message: t('orders.cancelled') }),
            onError: (error) => notifications.show({ color: 'red', message: error.message }),
          },
        )
      }
      data-testid="order-cancel"
    >
      {t('orders.cancel')}
    </Button>
  );
}

/** Pending (or finished) contract orders; pending ones can be cancelled. */
export function OrdersList({ items, loading }: ListProps<ContractOrderData>) {
  const { t } = useTranslation('contract');
  const symbolSide = useSymbolSideColumns<ContractOrderData>((o) => o.leverage);
  const status = (o: ContractOrderData) => (
    <Stack gap={0}>
      <StatusBadge label={t(`orderStatus.${o.status}`)} color={ORDER_COLOR[o.status]} status={o.status} />
      {o.cancel_reason ? (
        <Text size="xs" c="dimmed">
          {t(`cancelReason.${o.cancel_reason}`)}
        </Text>
      ) : null}
    </Stack>
  );
  const columns: Column<ContractOrderData>[] = [
    { key: 'time', label: t('col.time'), render: (o) => <Time ms={o.created_at} /> },
    ...symbolSide,
    { key: 'type', label: t('col.type'), render: (o) => <Text size="sm">{t(`orderType.${o.type}`)}</Text> },
    {
      key: 'price',
      label: t('col.price'),
      align: 'right',
      render: (o) => <ContractPrice symbol={o.symbol} value={o.price} />,
    },
    {
      key: 'lots',
      label: t('col.lots'),
      align: 'right',
      render: (o) => <ContractLots symbol={o.symbol} value={o.lots} />,
    },
    {
      key: 'tpsl',
      label: t('col.tpSl'),
      render: (o) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          <ContractPrice symbol={o.symbol} value={o.tp_price} /> /{' '}
          <ContractPrice symbol={o.symbol} value={o.sl_price} />
        </Text>
      ),
    },
    {
      key: 'frozen',
      label: t('col.frozen'),
      align: 'right',
      render: (o) => <Usdt value={o.frozen} suffix=" USDT" />,
    },
    { key: 'status', label: t('col.status'), render: status, inTitle: true },
    { key: 'action', label: t('col.actions'), render: (o) => <CancelOrder order={o} />, inTitle: true },
  ];
  return (
    <DataList
      items={items}
      loading={loading}
      empty={t('orders.empty')}
      columns={columns}
      rowKey={(o) => o.order_id}
      row={(o) => ({ 'data-testid': 'order-row', 'data-order-id': o.order_id, 'data-status': o.status })}
      title={(o) => (
        <>
          <SideSymbol side={o.side} symbol={o.symbol} leverage={o.leverage} />
          {status(o)}
        </>
      )}
      actions={(o) => <CancelOrder order={o} />}
      testId="orders"
    />
  );
}

/** Closed, liquidated and delivered positions: close reason, close price with its source and time. */
export function HistoryList({ items, loading }: ListProps<ContractPositionData>) {
  const { t } = useTranslation('contract');
  const symbolSide = useSymbolSideColumns<ContractPositionData>((p) => p.leverage);
  const status = (p: ContractPositionData) => (
    <Stack gap={0}>
      <StatusBadge
        label={t(`positionStatus.${p.status}`)}
        color={POSITION_COLOR[p.status]}
        status={p.status}
      />
      {p.close_reason ? (
        <Text size="xs" c="dimmed" data-testid="close-reason" data-reason={p.close_reason}>
          {t(`closeReason.${p.close_reason}`)}
        </Text>
      ) : null}
    </Stack>
  );
  const columns: Column<ContractPositionData>[] = [
    { key: 'closed', label: t('col.closedAt'), render: (p) => <Time ms={p.closed_at} /> },
    ...symbolSide,
    {
      key: 'lots',
      label: t('col.lots'),
      align: 'right',
      render: (p) => <ContractLots symbol={p.symbol} value={p.opened_lots} />,
    },
    {
      key: 'open',
      label: t('col.openPrice'),
      align: 'right',
      render: (p) => <ContractPrice symbol={p.symbol} value={p.open_price} />,
    },
    {
      key: 'close',
      label: t('col.closePrice'),
      align: 'right',
      render: (p) => <ContractPrice symbol={p.symbol} value={p.close_price} data-testid="close-price" />,
    },
    {
      key: 'source',
      wide: true,
      label: t('col.priceSource'),
      render: (p) => <PriceSource source={p.close_price_source} at={p.close_price_at} />,
    },
    { key: 'fee', wide: true, label: t('col.fee'), align: 'right', render: (p) => <Usdt value={p.fee} /> },
    {
      key: 'funding',
      wide: true,
      label: t('col.funding'),
      align: 'right',
      render: (p) => <Usdt value={p.funding} signed />,
    },
    {
      key: 'pnl',
      label: t('col.realized'),
      align: 'right',
      render: (p) => <Pnl value={p.realized_pnl} testId="realized-pnl" />,
    },
    { key: 'status', label: t('col.status'), render: status, inTitle: true },
  ];
  return (
    <DataList
      items={items}
      loading={loading}
      empty={t('history.empty')}
      columns={columns}
      rowKey={(p) => p.position_id}
      row={(p) => ({
        'data-testid': 'history-row',
        'data-position-id': p.position_id,
        'data-status': p.status,
      })}
      title={(p) => (
        <>
          <SideSymbol side={p.side} symbol={p.symbol} leverage={p.leverage} />
          {status(p)}
        </>
      )}
      testId="history"
    />
  );
}

/** Every close, partial or full. */
export function ClosesList({ items, loading }: ListProps<ContractCloseData>) {
  const { t } = useTranslation('contract');
  const symbolSide = useSymbolSideColumns<ContractCloseData>();
  const columns: Column<ContractCloseData>[] = [
    { key: 'time', label: t('col.time'), render: (c) => <Time ms={c.closed_at} /> },
    ...symbolSide,
    {
      key: 'lots',
      label: t('col.lots'),
      align: 'right',
      render: (c) => <ContractLots symbol={c.symbol} value={c.lots} />,
    },
    {
      key: 'open',
      label: t('col.openPrice'),
      align: 'right',
      render: (c) => <ContractPrice symbol={c.symbol} value={c.open_price} />,
    },
    {
      key: 'close',
      label: t('col.closePrice'),
      align: 'right',
      render: (c) => <ContractPrice symbol={c.symbol} value={c.close_price} />,
    },
    {
      key: 'source',
      wide: true,
      label: t('col.priceSource'),
      render: (c) => <PriceSource source={c.price_source} at={c.price_at} />,
    },
    { key: 'pnl', label: t('col.pnlClose'), align: 'right', render: (c) => <Pnl value={c.pnl} /> },
    { key: 'fee', label: t('col.fee'), align: 'right', render: (c) => <Usdt value={c.fee} /> },
    {
      key: 'released',
      wide: true,
      label: t('col.released'),
      align: 'right',
      render: (c) => <Usdt value={c.released} />,
    },
    {
      key: 'insurance',
      wide: true,
      label: t('col.insurance'),
      align: 'right',
      render: (c) => <Usdt value={c.insurance_covered} />,
    },
    {
      key: 'reason',
      label: t('col.reason'),
      render: (c) => (
        <Text size="sm" data-testid="close-reason" data-reason={c.reason}>
          {t(`closeReason.${c.reason}`)}
        </Text>
      ),
      inTitle: true,
    },
  ];
  return (
    <DataList
      items={items}
      loading={loading}
      empty={t('closes.empty')}
      columns={columns}
      rowKey={(c) => c.close_id}
      row={(c) => ({
        'data-testid': 'close-row',
        'data-position-id': c.position_id,
        'data-reason': c.reason,
      })}
      title={(c) => (
        <>
          <SideSymbol side={c.side} symbol={c.symbol} />
          <Text size="sm" data-testid="close-reason" data-reason={c.reason}>
            {t(`closeReason.${c.reason}`)}
          </Text>
        </>
      )}
      testId="closes"
    />
  );
}

/** Funding paid (negative) and received (positive). */
export function FundingList({ items, loading }: ListProps<ContractFundingData>) {
  const { t } = useTranslation('contract');
  const symbolSide = useSymbolSideColumns<ContractFundingData>();
  const columns: Column<ContractFundingData>[] = [
    { key: 'time', label: t('col.time'), render: (f) => <Time ms={f.funding_at} /> },
    ...symbolSide,
    { key: 'rate', label: t('col.rate'), align: 'right', render: (f) => <Num value={f.rate} size="sm" /> },
    {
      key: 'mark',
      label: t('col.markPrice'),
      align: 'right',
      render: (f) => <ContractPrice symbol={f.symbol} value={f.mark_price} />,
    },
    { key: 'amount', label: t('col.amount'), align: 'right', render: (f) => <Pnl value={f.amount} /> },
  ];
  return (
    <DataList
      items={items}
      loading={loading}
      empty={t('funding.empty')}
      columns={columns}
      rowKey={(f) => f.funding_id}
      row={(f) => ({ 'data-testid': 'funding-row', 'data-position-id': f.position_id })}
      title={(f) => <SideSymbol side={f.side} symbol={f.symbol} />}
      testId="funding"
    />
  );
}
