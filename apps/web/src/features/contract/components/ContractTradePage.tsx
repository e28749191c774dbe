import { Alert, Box, Loader, Select, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useInfo } from '../../../api/info.ts';
import { TradeSwitch } from '../../../components/TradeSwitch.tsx';
import { useToken } from '../../../lib/session.ts';
import { useContracts } from '../../../shared/market/api/getContracts.ts';
import { useCatalogue } from '../../../shared/market/api/getTickers.ts';
import { useInstrumentName } from '../../../shared/market/names.ts';
import { defaultContract, groupContracts } from '../logic.ts';
import { ContractTradeView } from './ContractTradeView.tsx';

const PICKER_LIMIT = 60;

/**
 * /preciousMetal, the trade route: the contract trade view. The picker lists every contract
 * instrument (`getContracts`) grouped by class; the instrument is `?symbol=`, else the most popular
 * metal. Demo customers trade the demo book, with the same screen.
 */
export function ContractTradePage() {
  const { t } = useTranslation('contract');
  const nameOf = useInstrumentName();
  const [params, setParams] = useSearchParams();
  const contracts = useContracts();
  const catalogue = useCatalogue();
  const token = useToken();
  const info = useInfo();
  const demo = token !== null && info.data?.is_demo === 1;
  const items = contracts.data ?? [];
  // The catalogue arrives in popularity order: contracts are listed (and the default chosen) by it.
  const rank = useMemo(
    () => new Map((catalogue.data ?? []).map((r, index) => [r.symbol, index])),
    [catalogue.data],
  );
  const ordered = useMemo(
    () =>
      [...items].sort(
        (a, b) =>
          (rank.get(a.symbol) ?? Number.MAX_SAFE_INTEGER) - (rank.get(b.symbol) ?? Number.MAX_SAFE_INTEGER),
      ),
    [items, rank],
  );
  const fallback = useMemo(
    () =>
      defaultContract(
        ordered,
        (catalogue.data ?? []).map((r) => r.symbol),
      ),
    [ordered, catalogue.data],
  );
  const symbol = params.get('symbol') ?? fallback;
  const options = useMemo(
    () =>
      groupContracts(ordered).map((g) => ({
        group: t(`picker.group.${g.group}`),
        items: g.items.map((i) => ({ value: i.symbol, label: `${i.symbol} · ${nameOf(i)}` })),
      })),
    [ordered, t, nameOf],
  );

  if (contracts.isPending || catalogue.isPending) {
    return (
      <Stack align="center" py={80} data-testid="trade-page">
        <Loader size="sm" />
      </Stack>
    );
  }
  if (contracts.isError) {
    return (
      <Stack py="xl" data-testid="trade-page">
        <Alert color="red" variant="light" data-testid="contracts-failed">
          {t('common.failed')}
        </Alert>
      </Stack>
    );
  }
  if (!symbol) {
    return (
      <Stack py="xl" data-testid="trade-page">
        <Text c="dimmed">{t('picker.none')}</Text>
      </Stack>
    );
  }

  const picker = (
    <Select
      aria-label={t('picker.label')}
      placeholder={t('picker.placeholder')}
      data={options}
      value={symbol}
      searchable
      limit={PICKER_LIMIT}
      allowDeselect={false}
      w={{ base: 200, sm: 320 }}
      translate="no"
      onChange={(value) => {
        if (!value) return;
        const next = new URLSearchParams(params);
        next.set('symbol', value);
        setParams(next);
      }}
      data-testid="trade-picker"
    />
  );
  const instrument = items.find((i) => i.symbol === symbol);

  return (
    <Box pt={{ base: 'sm', sm: 'lg' }} data-testid="trade-page">
      <TradeSwitch />
      {instrument ? (
        <ContractTradeView
          key={`${instrument.symbol}-${demo}`}
          instrument={instrument}
          instruments={items}
          row={catalogue.data?.find((r) => r.symbol === symbol)}
          demo={demo}
          loggedIn={token !== null}
          picker={picker}
        />
      ) : (
        <Stack py="xl" gap="md" data-testid="instrument-not-found">
          {picker}
          <Text c="dimmed">{t('picker.notFound', { symbol })}</Text>
        </Stack>
      )}
    </Box>
  );
}
