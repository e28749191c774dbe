import { Divider, Drawer, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorNote } from '../../app/ui.tsx';
import { useC2cOrder } from './api.ts';
import { Chat, OrderSummary, PaymentSection, StaffMessageBox, Timeline } from './OrderSections.tsx';
import { useC2cStaff } from './parts.tsx';

/** One order: its figures, the payment submitted, the timeline, the chat and (disputed) the staff box. */
export function OrderDrawer({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  const { t } = useTranslation('adminC2c');
  const detail = useC2cOrder(orderId);
  const { canWrite } = useC2cStaff();
  const o = detail.data;
  return (
    <Drawer
      opened={orderId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={t('order.title', { id: orderId ?? '' })}
    >
      <Stack data-testid="c2c-order-detail" data-order={orderId ?? ''}>
        <ErrorNote error={detail.error} />
        {o ? (
          <>
            <OrderSummary order={o} />
            <Divider />
            <Title order={5}>{t('order.payment')}</Title>
            <PaymentSection order={o} />
            <Divider />
            <Title order={5}>{t('order.timeline')}</Title>
            <Timeline order={o} />
            <Divider />
            <Title order={5}>{t('order.chat')}</Title>
            <Chat order={o} />
            <StaffMessageBox order={o} canWrite={canWrite} />
          </>
        ) : null}
      </Stack>
    </Drawer>
  );
}
