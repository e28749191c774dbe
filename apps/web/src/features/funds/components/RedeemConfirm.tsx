import { moneyScaleOf } from '@bourse/money';
import type { FundOrderData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { useSellEtf } from '../api/orders.ts';
import { cut, redeemEstimate, toSell } from '../logic.ts';

const USDT = moneyScaleOf('USDT');

/** The redemption's confirmation: what will be sold (quantity, value now), the cash, the estimate. */
export function RedeemConfirm({ order, onClose }: { order: FundOrderData | null; onClose: () => void }) {
  const { t } = useTranslation('funds');
  const sell = useSellEtf();
  const error = sell.error instanceof ApiError && sell.error.kind === 'refused' ? sell.error.message : null;
  const submit = (o: FundOrderData) =>
    sell.mutate(o.order_id, {
      onSuccess: (done) => {
        notifications.show({ color: 'green', message: t('redeem.done', { amount: done.proceeds ?? '0' }) });
        onClose();
      },
    });
  return (
    <Modal opened={order !== null} onClose={onClose} title={t('redeem.title')} centered>
      {order ? (
        <Stack gap="xs" data-testid="etf-redeem-confirm">
          <Text size="sm">{t('redeem.lead')}</Text>
          {toSell(order).map((h) => (
            <Group key={h.asset} justify="space-between" wrap="nowrap" data-testid={`etf-redeem-${h.asset}`}>
              <Text size="sm" fw={600} translate="no">
                {t('redeem.sell', { quantity: h.quantity, asset: h.asset })}
              </Text>
              <Text size="sm" c="dimmed">
                {t('redeem.worth', { value: cut(h.value, 2) })}
              </Text>
            </Group>
          ))}
          <Group justify="space-between">
            <Text size="sm">{t('redeem.cash')}</Text>
            <Num value={order.cash} kind="money" scale={USDT} suffix=" USDT" />
          </Group>
          <Divider />
          <Group justify="space-between">
            <Text size="sm" fw={600}>
              {t('redeem.total')}
            </Text>
            <Num value={redeemEstimate(order)} kind="money" scale={USDT} suffix=" USDT" fw={700} />
          </Group>
          <Text size="xs" c="dimmed">
            {t('redeem.hint')}
          </Text>
          {error ? <Alert color="red">{error}</Alert> : null}
          <Group grow mt="xs">
            <Button variant="default" onClick={onClose}>
              {t('redeem.back')}
            </Button>
            <Button
              color="red"
              loading={sell.isPending}
              onClick={() => submit(order)}
              data-testid="etf-redeem-submit"
            >
              {t('redeem.submit')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
