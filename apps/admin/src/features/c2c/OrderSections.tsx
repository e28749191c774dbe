import { type AdminC2cOrderDetailData, C2C_LIMITS, type C2cMessageData } from '@bourse/protocol';
import { Anchor, Badge, Button, Group, Image, Stack, Table, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, DoneNote, ErrorNote, Figure } from '../../app/ui.tsx';
import { useStaffMessage } from './api.ts';
import { Facts, OrderStateBadge, partiesOf } from './parts.tsx';

type D = { order: AdminC2cOrderDetailData };
export type EvidenceItem = AdminC2cOrderDetailData['evidence']['buyer'][number];

/** Every upload's audited link by file id (the server made one per file when the order was opened). */
export function linksOf(o: AdminC2cOrderDetailData): Map<string, EvidenceItem> {
  return new Map([...o.evidence.buyer, ...o.evidence.seller].map((e) => [e.file_id, e]));
}

/** An upload: the image through the server's short-lived audited link, or "no link". */
export function FileLink({ item, fileId }: { item: EvidenceItem | undefined; fileId: string }) {
  const { t } = useTranslation('adminC2c');
  if (!item?.url)
    return (
      <Text size="xs" c="dimmed" data-testid="c2c-file" data-file={fileId}>
        {t('order.fileNoLink', { id: fileId })}
      </Text>
    );
  return (
    <Stack gap={2} data-testid="c2c-file" data-file={fileId}>
      <Anchor href={item.url} target="_blank" rel="noopener noreferrer" size="xs">
        {t('order.fileOpen', { id: fileId })}
      </Anchor>
      <Image src={item.url} alt={fileId} mah={220} fit="contain" radius="sm" />
    </Stack>
  );
}

/** The order's parties, amounts, price (and feed) and deadlines. */
export function OrderSummary({ order: o }: D) {
  const { t } = useTranslation('adminC2c');
  const lang = useLang();
  const p = partiesOf(o);
  return (
    <Facts
      testId="c2c-order-summary"
      rows={[
        [t('order.number'), <Figure key="n">{o.order_id}</Figure>],
        [t('order.state'), <OrderStateBadge key="s" state={o.state} />],
        [t('order.side'), t(`side.${o.side}`)],
        [t('order.merchant'), `${o.merchant_name} (${o.merchant_uid ?? '—'})`],
        [t('order.customer'), o.customer_uid ?? '—'],
        [t('order.buyer'), `${p.buyerUid} · ${t(`party.${p.buyerRole}`)}`],
        [t('order.seller'), `${p.sellerUid} · ${t(`party.${p.sellerRole}`)}`],
        [t('order.amount'), <Amount key="a" value={o.amount} currency={o.coin} suffix />],
        [t('order.price'), <Amount key="p" value={o.price} currency={o.fiat} suffix />],
        [t('order.fiatTotal'), <Amount key="f" value={o.fiat_amount} currency={o.fiat} suffix />],
        ...(o.feed
          ? ([
              [
                t('order.feed'),
                t('order.feedText', {
                  symbol: o.feed.symbol,
                  price: o.feed.price,
                  source: o.feed.source,
                  bps: o.feed.spread_bps,
                  time: formatTime(o.feed.at, lang),
                }),
              ],
            ] as [string, string][])
          : []),
        [t('order.method'), t(`method.${o.method}`)],
        [t('order.created'), formatTime(o.created_at, lang)],
        [t('order.payBy'), formatTime(o.pay_by, lang)],
        [t('order.confirmBy'), formatTime(o.confirm_by, lang)],
        ...(o.end_reason ? ([[t('order.endReason'), o.end_reason]] as [string, string][]) : []),
        ...(o.outcome
          ? ([
              [
                t('order.outcome'),
                t('order.outcomeText', {
                  outcome: t(`outcome.${o.outcome.outcome}`),
                  by: t(`outcomeBy.${o.outcome.by}`),
                  reason: o.outcome.reason,
                  time: formatTime(o.outcome.at, lang),
                }),
              ],
            ] as [string, string][])
          : []),
      ]}
    />
  );
}

/** What the payer submitted: payer name, paying bank, the remittance proof. */
export function PaymentSection({ order: o }: D) {
  const { t } = useTranslation('adminC2c');
  const lang = useLang();
  if (o.paid_at === null && o.payer_name === null)
    return (
      <Text size="sm" c="dimmed" data-testid="c2c-order-payment" data-paid="false">
        {t('order.notPaid')}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="c2c-order-payment" data-paid="true">
      <Facts
        rows={[
          [t('order.payerName'), o.payer_name ?? '—'],
          [t('order.payerBank'), o.payer_bank ?? '—'],
          [t('order.paidAt'), formatTime(o.paid_at, lang)],
        ]}
      />
      {o.proof_id ? (
        <FileLink item={linksOf(o).get(o.proof_id)} fileId={o.proof_id} />
      ) : (
        <Text size="xs" c="dimmed">
          {t('order.noProof')}
        </Text>
      )}
    </Stack>
  );
}

/** Every transition of the order, oldest first. */
export function Timeline({ order: o }: D) {
  const { t } = useTranslation('adminC2c');
  const lang = useLang();
  return (
    <Table fz="xs" verticalSpacing={4} data-testid="c2c-order-timeline">
      <Table.Tbody>
        {o.timeline.map((e) => (
          <Table.Tr key={e.seq} data-testid="c2c-event" data-event={e.event}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(e.at, lang)}</Table.Td>
            <Table.Td>{t(`event.${e.event}`, { defaultValue: e.event })}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              {e.from ? `${t(`state.${e.from}`)} → ` : ''}
              {t(`state.${e.to}`)}
            </Table.Td>
            <Table.Td>{t(`party.${e.actor}`)}</Table.Td>
            <Table.Td>{e.reason ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Who wrote a message, as buyer or seller of this order. */
export function useSenderText(o: AdminC2cOrderDetailData): (m: C2cMessageData) => string {
  const { t } = useTranslation('adminC2c');
  const p = partiesOf(o);
  return (m) => {
    if (m.from === p.buyerRole) return t('chat.fromBuyer', { uid: p.buyerUid });
    if (m.from === p.sellerRole) return t('chat.fromSeller', { uid: p.sellerUid });
    return t(`party.${m.from}`);
  };
}

export function MessageItem({
  order,
  message: m,
}: {
  order: AdminC2cOrderDetailData;
  message: C2cMessageData;
}) {
  const lang = useLang();
  const sender = useSenderText(order);
  return (
    <Stack gap={2} data-testid="c2c-message" data-from={m.from} data-kind={m.kind}>
      <Group gap="xs">
        <Badge size="xs" variant="light" color={m.from === 'staff' ? 'grape' : 'gray'}>
          {sender(m)}
        </Badge>
        <Text size="xs" c="dimmed">
          {formatTime(m.at, lang)}
        </Text>
      </Group>
      {m.body ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {m.body}
        </Text>
      ) : null}
      {m.file_id ? <FileLink item={linksOf(order).get(m.file_id)} fileId={m.file_id} /> : null}
    </Stack>
  );
}

/** The order's chat, oldest first, with attachments. */
export function Chat({ order }: D) {
  const { t } = useTranslation('adminC2c');
  return (
    <Stack gap="sm" data-testid="c2c-order-chat">
      {order.messages.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('chat.empty')}
        </Text>
      ) : (
        order.messages.map((m) => <MessageItem key={m.seq} order={order} message={m} />)
      )}
    </Stack>
  );
}

/** Staff join a disputed order's chat (audited); other states have no staff box. */
export function StaffMessageBox({ order, canWrite }: D & { canWrite: boolean }) {
  const { t } = useTranslation('adminC2c');
  const send = useStaffMessage();
  const [body, setBody] = useState('');
  const [note, setNote] = useState<string | null>(null);
  if (!canWrite) return null;
  if (order.state !== 'disputed')
    return (
      <Text size="xs" c="dimmed" data-testid="c2c-staff-message-closed">
        {t('chat.onlyDisputed')}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="c2c-staff-message">
      <Textarea
        label={t('chat.staffLabel')}
        description={t('chat.staffHint')}
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
        maxLength={C2C_LIMITS.messageMax}
        autosize
        minRows={2}
        data-testid="c2c-staff-message-input"
      />
      <ErrorNote error={send.error} />
      <DoneNote onClose={() => setNote(null)} data-testid="c2c-staff-message-note">
        {note}
      </DoneNote>
      <Group justify="flex-end">
        <Button
          size="xs"
          disabled={body.trim() === ''}
          loading={send.isPending}
          onClick={() =>
            send.mutate(
              { id: order.order_id, body: body.trim() },
              {
                onSuccess: () => {
                  setBody('');
                  setNote(t('chat.sent'));
                },
              },
            )
          }
          data-testid="c2c-staff-message-send"
        >
          {t('chat.send')}
        </Button>
      </Group>
    </Stack>
  );
}
