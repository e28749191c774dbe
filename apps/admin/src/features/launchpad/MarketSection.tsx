import { type AdminLaunchpadProjectData, LAUNCHPAD_LIMITS } from '@bourse/protocol';
import { Alert, Button, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ReasonDialog } from '../../app/ui.tsx';
import { useOpenMarket } from './api.ts';
import { MARKET_FIELDS, type MarketFields, marketDefaults, mayOpenMarket } from './marketForm.ts';

const LABEL = {
  price_tick: 'market.priceTick',
  lot_size: 'market.lotSize',
  min_quantity: 'market.minQuantity',
  min_notional: 'market.minNotional',
  max_notional: 'market.maxNotional',
  maker_fee_rate: 'market.makerFee',
  taker_fee_rate: 'market.takerFee',
  price_band_bps: 'market.band',
} as const satisfies Record<keyof MarketFields, string>;

/** The settings of the new market, starting from the defaults, and the reason; the server's refusal in place. */
function OpenMarketDialog({
  project: p,
  opened,
  onClose,
}: {
  project: AdminLaunchpadProjectData;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('adminLaunchpad');
  const open = useOpenMarket();
  const [fields, setFields] = useState<MarketFields>(() => marketDefaults(p));
  const symbol = `${p.coin}/USDT`;
  return (
    <ReasonDialog
      opened={opened}
      size="lg"
      title={t('market.dialogTitle', { symbol })}
      text={t('market.text', { symbol })}
      confirmLabel={t('market.open')}
      onClose={onClose}
      onSubmit={async (reason) => {
        if (reason.trim().length < LAUNCHPAD_LIMITS.reasonMin)
          throw new Error(t('common.reasonShort', { min: LAUNCHPAD_LIMITS.reasonMin }));
        await open.mutateAsync({ id: p.project_id, ...fields, reason: reason.trim() });
      }}
    >
      <Text size="sm" c="dimmed">
        {t('market.issuePrice', { price: p.price })}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" data-testid="launchpad-market-form">
        {MARKET_FIELDS.map((field) => (
          <TextInput
            key={field}
            label={t(LABEL[field], { coin: p.coin })}
            value={fields[field]}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setFields((f) => ({ ...f, [field]: value }));
            }}
            inputMode="decimal"
            translate="no"
            data-testid={`launchpad-market-${field}`}
          />
        ))}
      </SimpleGrid>
    </ReasonDialog>
  );
}

/** The coin's spot market: open (symbol and date), openable now (a button), or when it may be. */
export function MarketSection({
  project: p,
  canWrite,
}: {
  project: AdminLaunchpadProjectData;
  canWrite: boolean;
}) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const [opening, setOpening] = useState(false);
  const symbol = p.market_symbol;
  return (
    <Stack gap="xs" data-testid="launchpad-market-section" data-symbol={symbol ?? ''}>
      {symbol && p.market_opened_at !== null ? (
        <Alert color="teal" variant="light">
          {t('market.opened', { symbol, date: formatTime(p.market_opened_at, lang) })}
        </Alert>
      ) : mayOpenMarket(p, Date.now()) ? (
        <>
          <Text size="sm">{t('market.none')}</Text>
          {canWrite ? (
            <Button
              size="compact-sm"
              variant="light"
              w="fit-content"
              onClick={() => setOpening(true)}
              data-testid="launchpad-market-open"
            >
              {t('market.open')}
            </Button>
          ) : null}
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {t('market.notYet', { date: formatTime(p.listing_at, lang) })}
        </Text>
      )}
      {opening ? <OpenMarketDialog project={p} opened onClose={() => setOpening(false)} /> : null}
    </Stack>
  );
}
