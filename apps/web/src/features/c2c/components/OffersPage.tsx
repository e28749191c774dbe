import type { C2cOfferData, C2cOrderSide } from '@bourse/protocol';
import {
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useC2cOffers, useOfferChoices } from '../api.ts';
import { C2C_ROUTES, orderMax, spreadPercent } from '../logic.ts';
import { Amount, C2cPage, ErrorNote, Fact, Loading, NoFeeNote, useC2cWords, WIDE } from './parts.tsx';

/** The merchant: name, completion rate, average release time, orders done. */
function MerchantCell({ offer }: { offer: C2cOfferData }) {
  const { t } = useTranslation('c2c');
  return (
    <Stack gap={2} miw={0}>
      <Text size="sm" fw={700} data-testid="offer-merchant">
        {offer.merchant_name}
        {offer.is_operator ? (
          <Text span size="xs" c="blue" ml={6}>
            {t('offers.operator')}
          </Text>
        ) : null}
      </Text>
      <Text size="xs" c="dimmed" data-testid="offer-completion">
        {offer.completion_rate === null
          ? t('offers.completionNone')
          : t('offers.completion', { rate: offer.completion_rate })}
        {' · '}
        {t('offers.ordersDone', { count: offer.orders_done })}
      </Text>
      <Text size="xs" c="dimmed" data-testid="offer-release">
        {offer.avg_release_minutes === null
          ? t('offers.releaseNone')
          : t('offers.release', { minutes: offer.avg_release_minutes })}
      </Text>
    </Stack>
  );
}

/** The price now: fixed, or the spread to the feed with the feed's price, source and time. */
function PriceCell({ offer }: { offer: C2cOfferData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  return (
    <Stack gap={2}>
      {offer.price === null ? (
        <Text size="sm" c="orange" data-testid="offer-price" data-value="">
          {t('offers.noPrice')}
        </Text>
      ) : (
        <Amount value={offer.price} currency={offer.fiat} testId="offer-price" size="md" fw={700} />
      )}
      {offer.price_kind === 'fixed' ? (
        <Text size="xs" c="dimmed" data-testid="offer-pricing" data-kind="fixed">
          {t('offers.fixed')}
        </Text>
      ) : (
        <Text size="xs" c="dimmed" data-testid="offer-pricing" data-kind="spread">
          {t('offers.spread', {
            spread: spreadPercent(offer.spread_bps ?? 0),
            symbol: offer.feed?.symbol ?? `${offer.coin}/${offer.fiat}`,
          })}
          {offer.feed ? (
            <>
              <br />
              <span data-testid="offer-feed">
                {t('offers.feed', {
                  symbol: offer.feed.symbol,
                  price: words.exact(offer.feed.price),
                  source: offer.feed.source,
                  time: words.time(offer.feed.at),
                })}
              </span>
            </>
          ) : null}
        </Text>
      )}
    </Stack>
  );
}

function MethodsCell({ offer }: { offer: C2cOfferData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  return (
    <Stack gap={2} data-testid="offer-methods">
      {offer.methods.map((m) => (
        <Text key={m.method} size="xs" data-method={m.method}>
          {t('offers.window', { method: words.method(m.method), minutes: m.window_minutes })}
        </Text>
      ))}
    </Stack>
  );
}

function LimitsText({ offer }: { offer: C2cOfferData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  return (
    <Text size="sm" data-testid="offer-limits">
      {t('offers.range', {
        min: words.exact(offer.min_amount),
        max: words.exact(orderMax(offer)),
        coin: offer.coin,
      })}
    </Text>
  );
}

function OrderButton({ offer }: { offer: C2cOfferData }) {
  const { t } = useTranslation('c2c');
  return (
    <Button
      component={Link}
      to={C2C_ROUTES.create(offer.offer_id)}
      size="sm"
      color={offer.side === 'buy' ? 'teal' : 'red'}
      disabled={offer.price === null}
      data-testid="offer-order"
    >
      {t(offer.side === 'buy' ? 'offers.buyButton' : 'offers.sellButton', { coin: offer.coin })}
    </Button>
  );
}

function OfferCard({ offer }: { offer: C2cOfferData }) {
  const { t } = useTranslation('c2c');
  return (
    <Paper withBorder radius="lg" p="md" data-testid="c2c-offer" data-offer={offer.offer_id}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <MerchantCell offer={offer} />
          <PriceCell offer={offer} />
        </Group>
        <SimpleGrid cols={2} spacing="sm">
          <Fact label={t('offers.limits')}>
            <LimitsText offer={offer} />
          </Fact>
          <Fact label={t('offers.available')}>
            <Amount value={offer.remaining} currency={offer.coin} testId="offer-available" />
          </Fact>
        </SimpleGrid>
        <Fact label={t('offers.methods')}>
          <MethodsCell offer={offer} />
        </Fact>
        {offer.terms ? (
          <Text size="xs" c="dimmed" data-testid="offer-terms" style={{ whiteSpace: 'pre-wrap' }}>
            {offer.terms}
          </Text>
        ) : null}
        <OrderButton offer={offer} />
      </Stack>
    </Paper>
  );
}

function OfferTable({ offers }: { offers: C2cOfferData[] }) {
  const { t } = useTranslation('c2c');
  return (
    <Table verticalSpacing="sm" fz="sm" data-testid="c2c-offers-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('offers.merchant')}</Table.Th>
          <Table.Th>{t('offers.price')}</Table.Th>
          <Table.Th>{t('offers.limits')}</Table.Th>
          <Table.Th ta="right">{t('offers.available')}</Table.Th>
          <Table.Th>{t('offers.methods')}</Table.Th>
          <Table.Th w={320}>{t('offers.terms')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {offers.map((offer) => (
          <Table.Tr key={offer.offer_id} data-testid="c2c-offer" data-offer={offer.offer_id}>
            <Table.Td>
              <MerchantCell offer={offer} />
            </Table.Td>
            <Table.Td>
              <PriceCell offer={offer} />
            </Table.Td>
            <Table.Td>
              <LimitsText offer={offer} />
            </Table.Td>
            <Table.Td ta="right">
              <Amount value={offer.remaining} currency={offer.coin} testId="offer-available" />
            </Table.Td>
            <Table.Td>
              <MethodsCell offer={offer} />
            </Table.Td>
            <Table.Td>
              <Text size="xs" c="dimmed" lineClamp={3} data-testid="offer-terms" title={offer.terms}>
                {offer.terms}
              </Text>
            </Table.Td>
            <Table.Td ta="right">
              <OrderButton offer={offer} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** `/c2c_index`: the offers, my side (buy or sell), a coin and a currency. */
export function OffersPage() {
  const { t } = useTranslation('c2c');
  const wide = useMediaQuery(WIDE, true, { getInitialValueInEffect: false });
  const [params, setParams] = useSearchParams();
  const side: C2cOrderSide = params.get('side') === 'sell' ? 'sell' : 'buy';
  const [coin, setCoin] = useState<string | null>(params.get('coin'));
  const [fiat, setFiat] = useState<string | null>(params.get('fiat'));
  const offers = useC2cOffers({ side, coin: coin ?? undefined, fiat: fiat ?? undefined });
  const choices = useOfferChoices();
  const all = t('offers.all');
  const setSide = (next: string) => {
    const out = new URLSearchParams(params);
    out.set('side', next);
    setParams(out, { replace: true });
  };
  return (
    <C2cPage title={t('offers.title')} section="offers" testId="c2c-offers">
      <Text size="sm" c="dimmed">
        {t('offers.lead')}
      </Text>
      <NoFeeNote />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SegmentedControl
          value={side}
          onChange={setSide}
          data={[
            { value: 'buy', label: t('offers.tabBuy') },
            { value: 'sell', label: t('offers.tabSell') },
          ]}
          data-testid="c2c-side"
        />
        <Select
          label={t('offers.coin')}
          value={coin}
          onChange={setCoin}
          placeholder={all}
          clearable
          data={choices.data?.coins ?? []}
          w={140}
          data-testid="c2c-filter-coin"
          comboboxProps={{ withinPortal: false }}
        />
        <Select
          label={t('offers.fiat')}
          value={fiat}
          onChange={setFiat}
          placeholder={all}
          clearable
          data={choices.data?.fiats ?? []}
          w={140}
          data-testid="c2c-filter-fiat"
          comboboxProps={{ withinPortal: false }}
        />
      </Group>
      {offers.isPending ? (
        <Loading />
      ) : offers.isError ? (
        <ErrorNote error={offers.error} retry={() => void offers.refetch()} />
      ) : offers.data.length === 0 ? (
        <Text c="dimmed" data-testid="c2c-offers-empty">
          {t('offers.empty')}
        </Text>
      ) : wide ? (
        <OfferTable offers={offers.data} />
      ) : (
        <Stack gap="sm" data-testid="c2c-offers-cards">
          {offers.data.map((offer) => (
            <OfferCard key={offer.offer_id} offer={offer} />
          ))}
        </Stack>
      )}
    </C2cPage>
  );
}
