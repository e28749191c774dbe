import type { AdminC2cOrderDetailData } from '@bourse/protocol';
import { Alert, Card, Divider, Drawer, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { useC2cOrder } from './api.ts';
import { DecisionPanel } from './Decision.tsx';
import {
  FileLink,
  MessageItem,
  OrderSummary,
  PaymentSection,
  StaffMessageBox,
  Timeline,
} from './OrderSections.tsx';
import { partiesOf, useC2cStaff } from './parts.tsx';

type Side = 'buyer' | 'seller';

/** The dispute as opened: by whom, why, their note, when the other side must answer. */
function DisputeOpened({ order: o }: { order: AdminC2cOrderDetailData }) {
  const { t } = useTranslation('adminC2c');
  const lang = useLang();
  const d = o.dispute;
  if (!d) return null;
  const p = partiesOf(o);
  const by =
    d.by === p.buyerRole
      ? t('evidence.buyer', { uid: p.buyerUid })
      : d.by === p.sellerRole
        ? t('evidence.seller', { uid: p.sellerUid })
        : t(`party.${d.by}`);
  return (
    <Alert color="red" variant="light" data-testid="c2c-dispute-opened" data-by={d.by}>
      <Text size="sm">
        {t('evidence.opened', {
          by,
          reason: t(`disputeReason.${d.reason}`),
          time: formatTime(d.at, lang),
          respondBy: formatTime(d.respond_by, lang),
        })}
      </Text>
    </Alert>
  );
}

/** One side's evidence: their dispute note, (buyer) the payment submitted, their uploads and messages. */
function EvidenceColumn({ order: o, side }: { order: AdminC2cOrderDetailData; side: Side }) {
  const { t } = useTranslation('adminC2c');
  const p = partiesOf(o);
  const role = side === 'buyer' ? p.buyerRole : p.sellerRole;
  const uid = side === 'buyer' ? p.buyerUid : p.sellerUid;
  const uploads = o.evidence[side];
  const messages = o.messages.filter((m) => m.from === role);
  const note = o.dispute && o.dispute.by === role ? o.dispute.note : null;
  return (
    <Card withBorder data-testid={`c2c-evidence-${side}`} data-role={role} data-uid={uid}>
      <Stack gap="sm">
        <Title order={5}>{t(`evidence.${side}`, { uid })}</Title>
        <Text size="xs" c="dimmed">
          {t(`evidence.${side}Role`, { party: t(`party.${role}`) })}
        </Text>
        <Text size="sm" fw={600}>
          {t('evidence.note')}
        </Text>
        {note ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="c2c-evidence-note">
            {note}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('evidence.noNote')}
          </Text>
        )}
        {side === 'buyer' ? (
          <>
            <Text size="sm" fw={600}>
              {t('order.payment')}
            </Text>
            <PaymentSection order={o} />
          </>
        ) : null}
        <Text size="sm" fw={600}>
          {t('evidence.uploads', { count: uploads.length })}
        </Text>
        <Stack gap="xs" data-testid="c2c-evidence-uploads">
          {uploads.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('evidence.noUploads')}
            </Text>
          ) : (
            uploads.map((u) => <FileLink key={`${u.file_id}-${u.at}`} item={u} fileId={u.file_id} />)
          )}
        </Stack>
        <Text size="sm" fw={600}>
          {t('evidence.messages', { count: messages.length })}
        </Text>
        <Stack gap="xs" data-testid="c2c-evidence-messages">
          {messages.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('chat.empty')}
            </Text>
          ) : (
            messages.map((m) => <MessageItem key={m.seq} order={o} message={m} />)
          )}
        </Stack>
      </Stack>
    </Card>
  );
}

/**
 * A disputed order: the evidence of both sides side by side (buyer left, seller right; proof images
 * through the server's audited links), what staff and the system wrote, the timeline, and the
 * decision.
 */
export function DisputeView({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  const { t } = useTranslation('adminC2c');
  const detail = useC2cOrder(orderId);
  const { canWrite } = useC2cStaff();
  const o = detail.data;
  const others = o?.messages.filter((m) => m.from === 'staff' || m.from === 'system') ?? [];
  return (
    <Drawer
      opened={orderId !== null}
      onClose={onClose}
      position="right"
      size="90%"
      title={t('evidence.title', { id: orderId ?? '' })}
    >
      <Stack data-testid="c2c-dispute-view" data-order={orderId ?? ''}>
        <ErrorNote error={detail.error} />
        {o ? (
          <>
            <DisputeOpened order={o} />
            <DecisionPanel order={o} />
            <SimpleGrid cols={2} data-testid="c2c-evidence">
              <EvidenceColumn order={o} side="buyer" />
              <EvidenceColumn order={o} side="seller" />
            </SimpleGrid>
            <Title order={5}>{t('evidence.staff')}</Title>
            <Stack gap="xs" data-testid="c2c-evidence-staff">
              {others.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('chat.empty')}
                </Text>
              ) : (
                others.map((m) => <MessageItem key={m.seq} order={o} message={m} />)
              )}
            </Stack>
            <StaffMessageBox order={o} canWrite={canWrite} />
            <Divider />
            <Title order={5}>{t('order.timeline')}</Title>
            <Timeline order={o} />
            <Divider />
            <Title order={5}>{t('order.details')}</Title>
            <OrderSummary order={o} />
          </>
        ) : null}
      </Stack>
    </Drawer>
  );
}
