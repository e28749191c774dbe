import { EARN_LIMITS, type EarnOrderData, type RedeemQuoteData } from '@bourse/protocol';
import { Sheet } from '@bourse/ui';
import { Alert, Button, Divider, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { useQuoteRedeem, useSellProfit } from '../api.ts';
import { secondsLeft } from '../logic.ts';
import { Line, Money, RefusalNote, useEarnWords } from './parts.tsx';

type Held = { quote: RedeemQuoteData; deadline: number };

/**
 * A binding quote and its countdown. The deadline is counted on this device from when the answer
 * arrived (the quote's lifetime, `EARN_LIMITS.quoteTtlMs`), never from comparing clocks; the server
 * is the judge and refuses a quote it considers expired.
 */
function useQuote(orderId: string | null) {
  const quoteCall = useQuoteRedeem();
  const [held, setHeld] = useState<Held | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const { mutate } = quoteCall;
  const fetchQuote = useCallback(() => {
    if (!orderId) return;
    setHeld(null);
    mutate(orderId, {
      onSuccess: (quote) => {
        const received = Date.now();
        setNow(received);
        setHeld({ quote, deadline: received + EARN_LIMITS.quoteTtlMs });
      },
    });
  }, [orderId, mutate]);
  useEffect(() => {
    if (orderId) fetchQuote();
    else setHeld(null);
  }, [orderId, fetchQuote]);
  useEffect(() => {
    if (!held) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [held]);
  const left = held ? secondsLeft(held.deadline, now) : 0;
  const failure =
    quoteCall.error instanceof ApiError && quoteCall.error.kind === 'refused' ? quoteCall.error : null;
  return {
    quote: held?.quote ?? null,
    left,
    expired: held !== null && left === 0,
    fetchQuote,
    loading: quoteCall.isPending,
    failure,
  };
}

/** The quote's figures: principal, rewards forfeited, penalty, what comes back and when. */
function QuoteFigures({ quote }: { quote: RedeemQuoteData }) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  const cur = quote.currency;
  return (
    <Stack gap="xs" data-testid="redeem-quote" data-quote={quote.quote_id}>
      <Line label={t('redeem.principal')}>
        <Money value={quote.principal} currency={cur} testId="quote-principal" />
      </Line>
      <Line label={t('redeem.forfeited')}>
        <Money value={quote.rewards_forfeited} currency={cur} testId="quote-forfeited" />
      </Line>
      <Line label={t('redeem.penalty')}>
        <Money value={quote.penalty} currency={cur} testId="quote-penalty" />
      </Line>
      <Divider />
      <Line label={t('redeem.returned')}>
        <Money value={quote.returned} currency={cur} size="lg" fw={700} testId="quote-returned" />
      </Line>
      <Line label={t('redeem.arrives')}>
        <Text size="sm" fw={600} data-testid="quote-arrives" data-value={quote.arrives_at}>
          {words.time(quote.arrives_at)}
        </Text>
      </Line>
    </Stack>
  );
}

/**
 * "Redeem early": fetches a binding quote, shows it with a countdown, and posts exactly that quote
 * (`sellProfit` with its id). An expired quote cannot be confirmed; a new one is a click away.
 */
export function RedeemDialog({ order, onClose }: { order: EarnOrderData | null; onClose: () => void }) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  const { quote, left, expired, fetchQuote, loading, failure } = useQuote(order?.order_id ?? null);
  const sell = useSellProfit();
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const confirm = () => {
    if (!order || !quote || expired) return;
    setRefusal(null);
    sell.mutate(
      { order_id: order.order_id, quote_id: quote.quote_id },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            message: t('redeem.done', {
              amount: words.money(quote.returned, quote.currency),
              currency: quote.currency,
              date: words.time(quote.arrives_at),
            }),
          });
          close();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.kind === 'refused') setRefusal(error);
        },
      },
    );
  };
  const shownRefusal = refusal ?? failure;
  return (
    <Sheet
      opened={order !== null}
      onClose={close}
      title={t('redeem.title')}
      closeLabel={t('detail.close')}
      data-testid="redeem-dialog"
    >
      <Stack gap="sm">
        {order ? (
          <Text size="sm" c="dimmed">
            {order.product_name} · {words.ruleName(order.redeem_rule, order.penalty_rate)}
          </Text>
        ) : null}
        {loading ? (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{t('redeem.loading')}</Text>
          </Group>
        ) : null}
        {quote ? <QuoteFigures quote={quote} /> : null}
        {quote && !expired ? (
          <Text
            size="sm"
            c={left <= 10 ? 'orange' : 'dimmed'}
            data-testid="redeem-countdown"
            data-seconds={left}
          >
            {t('redeem.expiresIn', { seconds: left })}
          </Text>
        ) : null}
        {expired ? (
          <Alert color="orange" variant="light" p="sm" data-testid="redeem-expired">
            {t('redeem.expired')}
          </Alert>
        ) : null}
        {shownRefusal ? (
          <RefusalNote
            code={shownRefusal.reason ?? 'REFUSED'}
            params={shownRefusal.params}
            message={shownRefusal.message}
            testId="redeem-refusal"
          />
        ) : null}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <Button variant="default" onClick={close} data-testid="redeem-cancel">
            {t('redeem.cancel')}
          </Button>
          {expired || (shownRefusal && !loading) ? (
            <Button
              variant="light"
              onClick={() => {
                setRefusal(null);
                fetchQuote();
              }}
              data-testid="redeem-refresh"
            >
              {t('redeem.refresh')}
            </Button>
          ) : (
            <Button
              color="orange"
              disabled={!quote}
              loading={sell.isPending}
              onClick={confirm}
              data-testid="redeem-confirm"
            >
              {quote
                ? t('redeem.confirm', {
                    amount: words.money(quote.returned, quote.currency),
                    currency: quote.currency,
                  })
                : t('redeem.title')}
            </Button>
          )}
        </SimpleGrid>
      </Stack>
    </Sheet>
  );
}
