import type { AssetClass } from '@bourse/protocol';
import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useContracts } from '../market/api/getContracts.ts';
import { useOptionInstruments } from '../market/api/getOptions.ts';
import { useSpotMarkets } from '../market/api/getSpotMarkets.ts';
import { tradeLinks } from './trade.ts';

/**
 * The instrument's ways to trade: spot (an enabled spot market), contract, up/down options — each a
 * button to its trade screen. A listed pair with no market of its own says it is not tradable yet.
 */
export function TradeActions({ symbol, assetClass }: { symbol: string; assetClass: AssetClass }) {
  const { t } = useTranslation('market');
  const spot = useSpotMarkets();
  const contracts = useContracts();
  const options = useOptionInstruments();
  // Each way to trade shows as soon as its list arrives; the "not tradable" note once all have.
  const loaded = !spot.isPending && !contracts.isPending && !options.isPending;
  const links = tradeLinks(symbol, assetClass, {
    spot: spot.data ?? [],
    contracts: contracts.data ?? [],
    options: options.data ?? [],
  });
  // A listed pair without an enabled spot market says so, next to any other way to trade it.
  const spotMissing = assetClass === 'crypto_spot' && !links.some((l) => l.kind === 'spot');
  const note =
    loaded && (spotMissing || links.length === 0) ? (
      <Text size="sm" c="dimmed" data-testid="instrument-not-tradable">
        {t(spotMissing ? 'instrument.spotNotTradable' : 'instrument.notTradable')}
      </Text>
    ) : null;
  if (links.length === 0) return note;
  return (
    <Group gap="xs" data-testid="instrument-trade">
      {links.map((link, i) => (
        <Button
          key={link.kind}
          component={Link}
          to={link.to}
          size="sm"
          variant={i === 0 ? 'filled' : 'light'}
          data-testid={`instrument-trade-${link.kind}`}
        >
          {t(`instrument.trade.${link.kind}`)}
        </Button>
      ))}
      {note}
    </Group>
  );
}
