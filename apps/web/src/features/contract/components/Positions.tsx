import type { CloseAllResult, ContractInstrumentData, ContractPositionData } from '@bourse/protocol';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Tabs, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  useCloseAllContracts,
  useCloseContract,
  useContractCloses,
  useContractFunding,
  useContractHistory,
  useContractOrders,
  useContractPositions,
} from '../api.ts';
import {
  ContractLots,
  ContractPrice,
  Pnl,
  RiskRate,
  SideSymbol,
  Time,
  Usdt,
  useSymbolSideColumns,
} from './bits.tsx';
import { type Column, DataList } from './DataList.tsx';
import { ClosesList, FundingList, HistoryList, OrdersList } from './Lists.tsx';
import { type PositionAction, PositionActionSheet } from './PositionActions.tsx';

function useConfirmClose() {
  const { t } = useTranslation('contract');
  const close = useCloseContract();
  return (p: ContractPositionData) =>
    modals.openConfirmModal({
      title: t('positions.confirmCloseTitle'),
      children: (
        <Text size="sm">
          {t('positions.confirmClose', { lots: p.lots, symbol: p.symbol, side: t(`side.${p.side}`) })}
        </Text>
      ),
      labels: { confirm: t('positions.confirm'), cancel: t('positions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-close' } as Record<string, string>,
      onConfirm: () =>
        close.mutate(
          { position_id: p.position_id },
          {
            onSuccess: () => notifications.show({ color: 'teal', message: t('positions.closed') }),
            onError: (error) => notifications.show({ color: 'red', message: error.message }),
          },
        ),
    });
}

/** The buttons that open a position's action sheet, in their order on the row. */
const ACTIONS = [
  { action: 'partial', label: 'positions.partial' },
  { action: 'tpsl', label: 'positions.tpSl' },
  { action: 'margin', label: 'positions.addMargin' },
] as const satisfies readonly { action: PositionAction; label: string }[];

/** Open positions with the server's live numbers and the actions on each. */
export function PositionsList({
  items,
  loading,
  onAction,
}: {
  items: readonly ContractPositionData[] | undefined;
  loading: boolean;
  onAction: (position: ContractPositionData, action: PositionAction) => void;
}) {
  const { t } = useTranslation('contract');
  const symbolSide = useSymbolSideColumns<ContractPositionData>((p) => p.leverage);
  const confirmClose = useConfirmClose();
  const actions = (p: ContractPositionData, wrap: 'wrap' | 'nowrap' = 'nowrap') => (
    <Group gap={4} wrap={wrap}>
      <Button
        size="compact-xs"
        color="red"
        variant="light"
        onClick={() => confirmClose(p)}
        data-testid="position-close"
      >
        {t('positions.close')}
      </Button>
      {ACTIONS.map(({ action, label }) => (
        <Button
          key={action}
          size="compact-xs"
          variant="default"
          onClick={() => onAction(p, action)}
          data-testid={`position-${action}`}
        >
          {t(label)}
        </Button>
      ))}
    </Group>
  );
  const columns: Column<ContractPositionData>[] = [
    ...symbolSide,
    {
      key: 'lots',
      label: t('col.lots'),
      align: 'right',
      render: (p) => (
        <ContractLots symbol={p.symbol} value={p.lots} data-testid="position-lots" data-value={p.lots} />
      ),
    },
    {
      key: 'open',
      label: t('col.openPrice'),
      align: 'right',
      render: (p) => <ContractPrice symbol={p.symbol} value={p.open_price} />,
    },
    {
      key: 'current',
      label: t('col.currentPrice'),
      align: 'right',
      render: (p) => (
        <ContractPrice symbol={p.symbol} value={p.current_price} data-testid="position-current" />
      ),
    },
    {
      key: 'margin',
      label: t('col.margin'),
      align: 'right',
      render: (p) => <Usdt value={p.margin} data-testid="position-margin-value" data-value={p.margin} />,
    },
    { key: 'fee', label: t('col.fee'), align: 'right', wide: true, render: (p) => <Usdt value={p.fee} /> },
    {
      key: 'funding',
      label: t('col.funding'),
      align: 'right',
      wide: true,
      render: (p) => <Usdt value={p.funding} signed />,
    },
    {
      key: 'tpsl',
      label: t('col.tpSl'),
      render: (p) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="position-tpsl-value">
          <ContractPrice symbol={p.symbol} value={p.tp_price} /> /{' '}
          <ContractPrice symbol={p.symbol} value={p.sl_price} />
        </Text>
      ),
    },
    {
      key: 'pnl',
      label: t('col.pnl'),
      align: 'right',
      render: (p) => <Pnl value={p.unrealized_pnl} testId="position-pnl" />,
    },
    {
      key: 'risk',
      label: t('col.risk'),
      render: (p) => <RiskRate rate={p.risk_rate} level={p.liquidation_level} testId="position-risk" />,
    },
    {
      key: 'liq',
      label: t('col.liquidationPrice'),
      align: 'right',
      render: (p) => (
        <ContractPrice symbol={p.symbol} value={p.liquidation_price} data-testid="position-liq" />
      ),
    },
    { key: 'opened', label: t('col.openedAt'), wide: true, render: (p) => <Time ms={p.opened_at} /> },
    { key: 'actions', label: t('col.actions'), render: (p) => actions(p, 'wrap'), inTitle: true, wrap: true },
  ];
  return (
    <DataList
      items={items}
      loading={loading}
      empty={t('positions.empty')}
      columns={columns}
      rowKey={(p) => p.position_id}
      row={(p) => ({
        'data-testid': 'position-row',
        'data-position-id': p.position_id,
        'data-symbol': p.symbol,
        'data-side': p.side,
      })}
      title={(p) => (
        <>
          <SideSymbol side={p.side} symbol={p.symbol} leverage={p.leverage} />
          <Pnl value={p.unrealized_pnl} />
        </>
      )}
      actions={(p) => actions(p, 'wrap')}
      testId="positions"
    />
  );
}

/** Failures of a close-all, listed with the server's reason in the reader's language. */
function CloseAllFailures({ result, onClose }: { result: CloseAllResult; onClose: () => void }) {
  const { t } = useTranslation('contract');
  if (result.failed.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      withCloseButton
      onClose={onClose}
      title={t('positions.closeAllFailed')}
      mb="sm"
      data-testid="close-all-failures"
    >
      <Stack gap={2}>
        {result.failed.map((f) => (
          <Text size="sm" key={f.position_id} data-testid="close-all-failure" data-reason={f.reason}>
            <Text span translate="no" fw={600}>
              {f.symbol}
            </Text>
            {': '}
            {f.message}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/**
 * The customer's positions, pending orders, history, closes and funding, under the trade view.
 * Positions refresh every second while the page is visible.
 */
export function PositionsPanel({
  loggedIn,
  instruments,
}: {
  loggedIn: boolean;
  instruments: readonly ContractInstrumentData[];
}) {
  const { t } = useTranslation('contract');
  const [tab, setTab] = useState<string>('positions');
  const [target, setTarget] = useState<{ id: string; action: PositionAction } | null>(null);
  const [failures, setFailures] = useState<CloseAllResult | null>(null);
  const positions = useContractPositions();
  const orders = useContractOrders({ status: 'pending', page: 1, page_size: 50 }, true);
  const page = { page: 1, page_size: 20 };
  const history = useContractHistory(page);
  const closes = useContractCloses(page);
  const funding = useContractFunding(page);
  const closeAll = useCloseAllContracts();
  const bySymbol = useMemo(() => new Map(instruments.map((i) => [i.symbol, i])), [instruments]);
  const open = positions.data ?? [];
  const live = target ? open.find((p) => p.position_id === target.id) : undefined;

  const confirmCloseAll = () =>
    modals.openConfirmModal({
      title: t('positions.confirmCloseAllTitle'),
      children: <Text size="sm">{t('positions.confirmCloseAll', { count: open.length })}</Text>,
      labels: { confirm: t('positions.confirm'), cancel: t('positions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-close-all' } as Record<string, string>,
      onConfirm: () =>
        closeAll.mutate(
          {},
          {
            onSuccess: (result) => {
              setFailures(result.failed.length > 0 ? result : null);
              if (result.closed.length > 0)
                notifications.show({
                  color: 'teal',
                  message: t('positions.closedAll', { count: result.closed.length }),
                });
            },
            onError: (error) => notifications.show({ color: 'red', message: error.message }),
          },
        ),
    });

  return (
    <Paper withBorder radius="md" p="sm" data-testid="contract-positions-panel">
      <Tabs value={tab} onChange={(v) => v && setTab(v)}>
        <Tabs.List mb="sm" style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
          <Tabs.Tab value="positions" data-testid="tab-positions">
            {t('tabs.positions')}
            {positions.data ? (
              <Badge size="xs" variant="light" ml={6} data-testid="positions-count">
                {positions.data.length}
              </Badge>
            ) : null}
          </Tabs.Tab>
          <Tabs.Tab value="orders" data-testid="tab-orders">
            {t('tabs.orders')}
            {orders.data ? (
              <Badge size="xs" variant="light" ml={6}>
                {orders.data.total}
              </Badge>
            ) : null}
          </Tabs.Tab>
          <Tabs.Tab value="history" data-testid="tab-history">
            {t('tabs.history')}
          </Tabs.Tab>
          <Tabs.Tab value="closes" data-testid="tab-closes">
            {t('tabs.closes')}
          </Tabs.Tab>
          <Tabs.Tab value="funding" data-testid="tab-funding">
            {t('tabs.funding')}
          </Tabs.Tab>
          {loggedIn ? (
            <Group gap="sm" ml="auto" wrap="nowrap" visibleFrom="sm">
              {tab === 'positions' && open.length > 0 ? (
                <Button
                  size="compact-sm"
                  variant="light"
                  color="red"
                  loading={closeAll.isPending}
                  onClick={confirmCloseAll}
                  data-testid="close-all"
                >
                  {t('positions.closeAll')}
                </Button>
              ) : null}
              <Anchor component={Link} to="/contractRecord" size="sm" data-testid="records-link">
                {t('header.records')}
              </Anchor>
            </Group>
          ) : null}
        </Tabs.List>
        {loggedIn && tab === 'positions' && open.length > 0 ? (
          <Group justify="flex-end" mb="xs" hiddenFrom="sm">
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              loading={closeAll.isPending}
              onClick={confirmCloseAll}
              data-testid="close-all-mobile"
            >
              {t('positions.closeAll')}
            </Button>
          </Group>
        ) : null}
        {failures ? <CloseAllFailures result={failures} onClose={() => setFailures(null)} /> : null}
        {!loggedIn ? (
          <Text c="dimmed" size="sm" ta="center" py="lg">
            {t('positions.loginPrompt')}
          </Text>
        ) : (
          <>
            <Tabs.Panel value="positions" data-testid="panel-positions">
              <PositionsList
                items={positions.data}
                loading={positions.isPending}
                onAction={(p, action) => setTarget({ id: p.position_id, action })}
              />
            </Tabs.Panel>
            <Tabs.Panel value="orders" data-testid="panel-orders">
              <OrdersList items={orders.data?.items} loading={orders.isPending} />
            </Tabs.Panel>
            <Tabs.Panel value="history" data-testid="panel-history">
              <HistoryList items={history.data?.items} loading={history.isPending} />
            </Tabs.Panel>
            <Tabs.Panel value="closes" data-testid="panel-closes">
              <ClosesList items={closes.data?.items} loading={closes.isPending} />
            </Tabs.Panel>
            <Tabs.Panel value="funding" data-testid="panel-funding">
              <FundingList items={funding.data?.items} loading={funding.isPending} />
            </Tabs.Panel>
          </>
        )}
      </Tabs>
      <PositionActionSheet
        target={target && live ? { position: live, action: target.action } : null}
        instruments={bySymbol}
        onClose={() => setTarget(null)}
      />
    </Paper>
  );
}
