import { formatPercent } from '@bourse/money';
import {
  LOCALE_OF,
  type MarketMakerData,
  type SpotKillSwitchData,
  type SpotMarketAdminData,
} from '@bourse/protocol';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, Figure, ReasonDialog } from '../../app/ui.tsx';

type MarketsAnswer = { items: SpotMarketAdminData[]; kill_switch: SpotKillSwitchData };

const MARKETS_KEY = ['spotMarkets'] as const;
const MM_KEY = ['marketMaker'] as const;

/** A fee rate stored as a fraction, as a percent with every digit it has ("0.001" → "0.1%"). */
function useFeeRate(): (rate: string) => string {
  const lang = useLang();
  return (rate) => formatPercent(rate, { fraction: true, digits: 'all', locale: LOCALE_OF[lang] });
}

type Dialog =
  | { kind: 'halt' | 'enable'; market: SpotMarketAdminData }
  | { kind: 'edit'; market: SpotMarketAdminData }
  | { kind: 'kill'; engage: boolean }
  | { kind: 'mm'; body: Record<string, string> }
  | null;

function EditFields({
  market,
  values,
  onChange,
}: {
  market: SpotMarketAdminData;
  values: Record<string, string>;
  onChange: (next: Record<string, string>) => void;
}) {
  const { t } = useTranslation('trade');
  const field = (key: string, label: string, initial: string) => (
    <TextInput
      key={key}
      label={label}
      value={values[key] ?? initial}
      onChange={(e) => onChange({ ...values, [key]: e.currentTarget.value })}
      data-testid={`edit-${key}`}
    />
  );
  return (
    <SimpleGrid cols={2}>
      {field('maker_fee_rate', t('admin.makerFee'), market.maker_fee_rate)}
      {field('taker_fee_rate', t('admin.takerFee'), market.taker_fee_rate)}
      {field('min_quantity', t('admin.minQty'), market.min_quantity)}
      {field('min_notional', t('admin.minNotional'), market.min_notional)}
      {field('max_notional', t('admin.maxNotional'), market.max_notional)}
      {field('price_band_bps', t('admin.band'), String(market.price_band_bps))}
    </SimpleGrid>
  );
}

function MarketMakerPanel({ onChange }: { onChange: (body: Record<string, string>) => void }) {
  const { t } = useTranslation('trade');
  const lang = useLang();
  const mm = useQuery({ queryKey: MM_KEY, queryFn: () => api.get<MarketMakerData>('marketMaker') });
  const [values, setValues] = useState<Record<string, string>>({});
  if (!mm.data) return <ErrorNote error={mm.error} />;
  const s = mm.data.settings;
  const field = (key: keyof typeof s, label: string) => (
    <TextInput
      key={key}
      label={label}
      value={values[key] ?? String(s[key])}
      onChange={(e) => setValues({ ...values, [key]: e.currentTarget.value })}
      data-testid={`mm-${key}`}
    />
  );
  return (
    <Paper withBorder p="md" radius="md" data-testid="mm-panel">
      <Stack>
        <Group justify="space-between">
          <Title order={3}>{t('admin.mmTitle')}</Title>
          <Switch
            checked={s.enabled}
            label={s.enabled ? t('admin.mmEnabled') : t('admin.mmDisabled')}
            onChange={(e) => onChange({ enabled: e.currentTarget.checked ? '1' : '0' })}
            data-testid="mm-enabled"
          />
        </Group>
        <SimpleGrid cols={{ base: 2, md: 3 }}>
          {field('spread_bps', t('admin.mmSpread'))}
          {field('step_bps', t('admin.mmStep'))}
          {field('levels', t('admin.mmLevels'))}
          {field('level_notional', t('admin.mmLevelNotional'))}
          {field('inventory_limit_pct', t('admin.mmInventory'))}
          {field('refresh_ms', t('admin.mmRefresh'))}
        </SimpleGrid>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('admin.mmOpenOrders', { real: mm.data.open_orders.real, demo: mm.data.open_orders.demo })} ·{' '}
            {t('admin.mmLastRefresh', {
              time: mm.data.last_refresh_at ? formatTime(mm.data.last_refresh_at, lang) : t('admin.never'),
            })}
          </Text>
          <Button
            disabled={Object.keys(values).length === 0}
            onClick={() => {
              onChange(values);
              setValues({});
            }}
            data-testid="mm-save"
          >
            {t('admin.save')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('admin.mmAccounts')}: {mm.data.accounts.real ?? '—'} / {mm.data.accounts.demo ?? '—'}
        </Text>
        <Title order={4}>{t('admin.mmInventoryTitle')}</Title>
        <Table striped data-testid="mm-inventory">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.book')}</Table.Th>
              <Table.Th>{t('admin.currency')}</Table.Th>
              <Table.Th ta="right">{t('admin.available')}</Table.Th>
              <Table.Th ta="right">{t('admin.frozen')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {mm.data.inventory.map((i) => (
              <Table.Tr key={`${i.book}-${i.currency}`}>
                <Table.Td>{t(`admin.bookName.${i.book}`)}</Table.Td>
                <Table.Td>{i.currency}</Table.Td>
                <Table.Td ta="right">
                  <Amount value={i.available} currency={i.currency} />
                </Table.Td>
                <Table.Td ta="right">
                  <Amount value={i.frozen} currency={i.currency} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

/**
 * Spot markets: status (enable, halt with a reason), fees and minimums, the kill switch that halts
 * all matching, and the market maker's settings and inventory. Every change asks for a reason,
 * which the server writes to the audit log with the change.
 */
export default function MarketsScreen() {
  const { t } = useTranslation('trade');
  const lang = useLang();
  const feeRate = useFeeRate();
  const client = useQueryClient();
  const markets = useQuery({ queryKey: MARKETS_KEY, queryFn: () => api.get<MarketsAnswer>('spotMarkets') });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const done = async () => {
    setSaved(true);
    await Promise.all([
      client.invalidateQueries({ queryKey: MARKETS_KEY }),
      client.invalidateQueries({ queryKey: MM_KEY }),
    ]);
  };
  const kill = markets.data?.kill_switch;

  const submit = async (reason: string) => {
    if (!dialog) return;
    if (dialog.kind === 'halt') await api.post('spotMarketHalt', { symbol: dialog.market.symbol, reason });
    if (dialog.kind === 'enable')
      await api.post('spotMarketEnable', { symbol: dialog.market.symbol, reason });
    if (dialog.kind === 'edit') {
      const changed = Object.fromEntries(Object.entries(edits).filter(([, v]) => v.trim() !== ''));
      await api.post('spotMarketUpdate', { symbol: dialog.market.symbol, ...changed, reason });
    }
    if (dialog.kind === 'kill')
      await api.post('spotKillSwitch', { engaged: dialog.engage ? '1' : '0', reason });
    if (dialog.kind === 'mm') await api.post('marketMakerSettings', { ...dialog.body, reason });
    setEdits({});
    await done();
  };

  const title = (() => {
    if (!dialog) return '';
    if (dialog.kind === 'halt') return t('admin.haltTitle', { symbol: dialog.market.symbol });
    if (dialog.kind === 'enable') return t('admin.enableTitle', { symbol: dialog.market.symbol });
    if (dialog.kind === 'edit') return t('admin.editTitle', { symbol: dialog.market.symbol });
    if (dialog.kind === 'kill') return dialog.engage ? t('admin.killEngage') : t('admin.killRelease');
    return t('admin.mmTitle');
  })();
  const text = (() => {
    if (!dialog) return undefined;
    if (dialog.kind === 'halt') return t('admin.haltText');
    if (dialog.kind === 'enable') return t('admin.enableText');
    if (dialog.kind === 'kill') return dialog.engage ? t('admin.killConfirm') : t('admin.killReleaseConfirm');
    return undefined;
  })();

  return (
    <Stack data-testid="markets-screen">
      <Title order={2}>{t('admin.title')}</Title>
      <ErrorNote error={markets.error} />
      {saved ? (
        <Alert
          color="teal"
          variant="light"
          withCloseButton
          onClose={() => setSaved(false)}
          data-testid="markets-saved"
        >
          {t('admin.saved')}
        </Alert>
      ) : null}
      {kill ? (
        <Alert
          color={kill.engaged ? 'red' : 'gray'}
          variant="light"
          title={t('admin.killTitle')}
          data-testid="kill-switch"
          data-engaged={kill.engaged}
        >
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Text size="sm">{kill.engaged ? t('admin.killEngaged') : t('admin.killReleased')}</Text>
              {kill.engaged && kill.engaged_at ? (
                <Text size="xs" c="dimmed">
                  {t('admin.killSince', {
                    time: formatTime(kill.engaged_at, lang),
                    reason: kill.reason ?? '',
                  })}
                </Text>
              ) : null}
            </Stack>
            <Button
              color={kill.engaged ? 'gray' : 'red'}
              onClick={() => setDialog({ kind: 'kill', engage: !kill.engaged })}
              data-testid="kill-toggle"
            >
              {kill.engaged ? t('admin.killRelease') : t('admin.killEngage')}
            </Button>
          </Group>
        </Alert>
      ) : null}
      {markets.data ? (
        <Table.ScrollContainer minWidth={1000}>
          <Table striped data-testid="markets-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.symbol')}</Table.Th>
                <Table.Th>{t('admin.status')}</Table.Th>
                <Table.Th>{t('admin.fees')}</Table.Th>
                <Table.Th>{t('admin.limits')}</Table.Th>
                <Table.Th>{t('admin.minimums')}</Table.Th>
                <Table.Th>{t('admin.openOrders')}</Table.Th>
                <Table.Th>{t('admin.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {markets.data.items.map((m) => (
                <Table.Tr
                  key={m.symbol}
                  data-testid="market-row"
                  data-symbol={m.symbol}
                  data-status={m.status}
                >
                  <Table.Td>
                    <Text fw={600}>{m.symbol}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      color={m.status === 'enabled' ? 'teal' : 'orange'}
                      variant="light"
                      style={{ flexShrink: 0, overflow: 'visible' }}
                      miw="max-content"
                    >
                      {m.status === 'enabled' ? t('admin.enabled') : t('admin.halted')}
                    </Badge>
                    {m.halt_reason ? (
                      <Text size="xs" c="dimmed" maw={220}>
                        {m.halt_reason}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Figure>
                      {feeRate(m.maker_fee_rate)} / {feeRate(m.taker_fee_rate)}
                    </Figure>
                  </Table.Td>
                  <Table.Td>
                    <Figure>
                      {m.price_tick} / {m.lot_size}
                    </Figure>
                  </Table.Td>
                  <Table.Td>
                    <Figure>
                      {m.min_quantity} / {m.min_notional}
                    </Figure>
                  </Table.Td>
                  <Table.Td>
                    <Figure>
                      {m.open_orders_real} / {m.open_orders_demo}
                    </Figure>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {m.status === 'enabled' ? (
                        <Button
                          size="compact-sm"
                          color="orange"
                          variant="light"
                          onClick={() => setDialog({ kind: 'halt', market: m })}
                          data-testid="market-halt"
                        >
                          {t('admin.halt')}
                        </Button>
                      ) : (
                        <Button
                          size="compact-sm"
                          color="teal"
                          variant="light"
                          onClick={() => setDialog({ kind: 'enable', market: m })}
                          data-testid="market-enable"
                        >
                          {t('admin.enable')}
                        </Button>
                      )}
                      <Button
                        size="compact-sm"
                        variant="default"
                        onClick={() => setDialog({ kind: 'edit', market: m })}
                        data-testid="market-edit"
                      >
                        {t('admin.edit')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <MarketMakerPanel onChange={(body) => setDialog({ kind: 'mm', body })} />
      <ReasonDialog
        opened={dialog !== null}
        title={title}
        text={text}
        confirmLabel={t('admin.save')}
        danger={dialog?.kind === 'kill' || dialog?.kind === 'halt'}
        reasonOptional={dialog?.kind === 'enable' || dialog?.kind === 'edit'}
        onClose={() => {
          setDialog(null);
          setEdits({});
        }}
        onSubmit={submit}
      >
        {dialog?.kind === 'edit' ? (
          <EditFields market={dialog.market} values={edits} onChange={setEdits} />
        ) : null}
      </ReasonDialog>
    </Stack>
  );
}
