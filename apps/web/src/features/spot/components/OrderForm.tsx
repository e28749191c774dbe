import { moneyScaleOf } from '@bourse/money';
import type { SpotBalanceData, SpotMarketData, SpotOrderType, SpotSide } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { type SpotOrder, useSpotOrder } from '../hooks/useSpotOrder.ts';
import type { BookState } from '../logic/book.ts';
import { OrderPreview, PercentSlider, PriceQtyFields } from './OrderFormParts.tsx';

/** Logged out: a prompt to log in (coming back here afterwards) or register. */
function LoggedOutForm({ side }: { side: SpotSide }) {
  const { t } = useTranslation('trade');
  const location = useLocation();
  return (
    <Stack gap="xs" align="stretch" py="md" data-testid={`form-${side}`} data-logged-out>
      <Text size="sm" c="dimmed" ta="center">
        {t('form.loginPrompt')}
      </Text>
      <Button
        component={Link}
        to="/login"
        onClick={() => rememberReturnTo(`${location.pathname}${location.search}`)}
        color={side === 'buy' ? 'teal' : 'red'}
        data-testid="form-login"
      >
        {t('form.loginButton')}
      </Button>
      <Button component={Link} to="/register" variant="default">
        {t('form.registerButton')}
      </Button>
    </Stack>
  );
}

/** The balance this side spends: quote for a buy, base for a sell. */
function AvailableRow({ market, side, order }: { market: SpotMarketData; side: SpotSide; order: SpotOrder }) {
  const { t } = useTranslation('trade');
  const asset = side === 'buy' ? market.quote : market.base;
  return (
    <Group justify="space-between" gap={4}>
      <Text size="xs" c="dimmed">
        {t('form.available')}
      </Text>
      <Num
        value={order.availableText}
        kind="money"
        scale={moneyScaleOf(asset)}
        size="xs"
        fw={600}
        suffix={` ${asset}`}
        data-testid={`available-${side}`}
        data-value={order.availableText ?? ''}
      />
    </Group>
  );
}

/** The send button and the server's refusal under it. */
function SubmitArea({ market, side, order }: { market: SpotMarketData; side: SpotSide; order: SpotOrder }) {
  const { t } = useTranslation('trade');
  const { refusal } = order;
  return (
    <>
      <Button
        color={side === 'buy' ? 'teal' : 'red'}
        onClick={order.submit}
        loading={order.pending}
        disabled={!order.ready}
        data-testid={`submit-${side}`}
      >
        {side === 'buy'
          ? t('form.buyBase', { base: market.base })
          : t('form.sellBase', { base: market.base })}
      </Button>
      {refusal ? (
        <Alert
          color="red"
          variant="light"
          p="xs"
          data-testid={`refusal-${side}`}
          data-reason={refusal.reason ?? ''}
        >
          <Text size="xs">{refusal.message}</Text>
        </Alert>
      ) : null}
    </>
  );
}

/**
 * One side's order form: limit or market, price, quantity, the percent-of-balance slider, the
 * available balance, the order value and fee preview, and every rule the order would break shown
 * while typing. The server checks the same rules; its refusal is shown under the button.
 */
export function OrderForm({
  market,
  side,
  kind,
  book,
  balance,
  loggedIn,
  pickedPrice,
}: {
  market: SpotMarketData;
  side: SpotSide;
  kind: SpotOrderType;
  book: BookState;
  balance: SpotBalanceData | undefined;
  loggedIn: boolean;
  pickedPrice: { price: string; at: number } | null;
}) {
  const order = useSpotOrder({ market, side, kind, book, balance, pickedPrice });
  if (!loggedIn) return <LoggedOutForm side={side} />;
  return (
    <Stack gap={8} data-testid={`form-${side}`} data-kind={kind}>
      <AvailableRow market={market} side={side} order={order} />
      <PriceQtyFields market={market} side={side} kind={kind} order={order} />
      <PercentSlider side={side} order={order} />
      <OrderPreview market={market} side={side} kind={kind} order={order} />
      <SubmitArea market={market} side={side} order={order} />
    </Stack>
  );
}
