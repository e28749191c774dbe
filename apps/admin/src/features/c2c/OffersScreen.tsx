import { C2C_OFFER_STATES, type C2cOfferData, type C2cOfferState } from '@bourse/protocol';
import { Badge, Button, Card, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, DoneNote, ErrorNote, Figure, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { useC2cMerchants, useC2cOffers, useOfferState } from './api.ts';
import { OfferFormModal } from './OfferFormModal.tsx';
import { NoPermission, OfferStateBadge, REASON_MIN, useC2cStaff, WRITE_PERMISSION } from './parts.tsx';

type Acting = { offer: C2cOfferData; state: C2cOfferState };

function PriceCell({ o }: { o: C2cOfferData }) {
  const { t } = useTranslation('adminC2c');
  const lang = useLang();
  return (
    <Stack gap={0}>
      <Amount value={o.price} currency={o.fiat} suffix />
      {o.price_kind === 'spread' ? (
        <Text size="xs" c="dimmed" data-testid="c2c-offer-spread-text">
          {t('offers.spreadText', { bps: o.spread_bps ?? 0, symbol: o.feed?.symbol ?? '—' })}
          {o.feed
            ? ` · ${t('offers.feedText', { price: o.feed.price, source: o.feed.source, time: formatTime(o.feed.at, lang) })}`
            : ''}
        </Text>
      ) : (
        <Text size="xs" c="dimmed">
          {t('priceKind.fixed')}
        </Text>
      )}
    </Stack>
  );
}

function MethodsCell({ o }: { o: C2cOfferData }) {
  const { t } = useTranslation('adminC2c');
  const amountText = useAmountText();
  return (
    <Stack gap={0}>
      {o.methods.map((m) => (
        <Text key={m.method} size="xs" style={{ whiteSpace: 'nowrap' }}>
          {t('offers.methodText', { method: t(`method.${m.method}`), count: m.window_minutes })}
          {m.max_amount ? ` · ${t('offers.capText', { cap: amountText(m.max_amount, o.coin) })}` : ''}
        </Text>
      ))}
    </Stack>
  );
}

function OfferRow(props: {
  offer: C2cOfferData;
  canWrite: boolean;
  onEdit: () => void;
  onAct: (state: C2cOfferState) => void;
}) {
  const { t } = useTranslation('adminC2c');
  const o = props.offer;
  return (
    <Table.Tr data-testid="c2c-offer" data-offer={o.offer_id} data-state={o.state} data-book={o.book}>
      <Table.Td>
        <Text size="sm">
          {o.merchant_name}{' '}
          {o.book === 'demo' ? (
            <Badge size="xs" color="gray" variant="outline" data-testid="c2c-offer-demo">
              {t('offers.demoBook')}
            </Badge>
          ) : null}
        </Text>
        <Text size="xs" c="dimmed">
          {o.offer_id}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{t(`side.${o.side}`)}</Table.Td>
      <Table.Td>
        <Figure>{`${o.coin}/${o.fiat}`}</Figure>
      </Table.Td>
      <Table.Td data-testid="c2c-offer-price-cell">
        <PriceCell o={o} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Amount value={o.min_amount} currency={o.coin} />
        {' – '}
        <Amount value={o.max_amount} currency={o.coin} suffix />
      </Table.Td>
      <Table.Td data-testid="c2c-offer-remaining">
        <Amount value={o.remaining} currency={o.coin} />
        <Text size="xs" c="dimmed">
          {t('offers.ofTotal')} <Amount value={o.total_amount} currency={o.coin} suffix />
        </Text>
      </Table.Td>
      <Table.Td>
        <MethodsCell o={o} />
      </Table.Td>
      <Table.Td>
        <OfferStateBadge state={o.state} />
      </Table.Td>
      <Table.Td>
        {props.canWrite ? (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="subtle" onClick={props.onEdit} data-testid="c2c-offer-edit">
              {t('offers.edit')}
            </Button>
            {o.state === 'active' ? (
              <Button
                size="compact-xs"
                variant="light"
                color="orange"
                onClick={() => props.onAct('paused')}
                data-testid="c2c-offer-pause"
              >
                {t('offers.pause')}
              </Button>
            ) : (
              <Button
                size="compact-xs"
                variant="default"
                onClick={() => props.onAct('active')}
                data-testid="c2c-offer-resume"
              >
                {t('offers.resume')}
              </Button>
            )}
          </Group>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

/** Every offer, paused ones too, by merchant and state; create, change, pause or resume one (audited). */
export default function OffersScreen() {
  const { t } = useTranslation('adminC2c');
  const offers = useC2cOffers();
  const merchants = useC2cMerchants();
  const setState = useOfferState();
  const { canWrite } = useC2cStaff();
  const [merchantId, setMerchantId] = useState<string | null>(null);
  const [state, setStateFilter] = useState<C2cOfferState | null>(null);
  const [editing, setEditing] = useState<C2cOfferData | null>(null);
  const [creating, setCreating] = useState(false);
  const [acting, setActing] = useState<Acting | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const merchantList = merchants.data ?? [];
  const items = (offers.data ?? []).filter(
    (o) => (merchantId === null || o.merchant_id === merchantId) && (state === null || o.state === state),
  );
  const heads = [
    'merchant',
    'side',
    'pair',
    'price',
    'limits',
    'remaining',
    'methods',
    'state',
    'actions',
  ] as const;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('offers.title')}</Title>
        <Group>
          <Button variant="default" size="xs" onClick={() => void offers.refetch()}>
            {t('common.refresh')}
          </Button>
          {canWrite ? (
            <Button size="xs" onClick={() => setCreating(true)} data-testid="c2c-offer-new">
              {t('offers.new')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('offers.intro')}
      </Text>
      {!canWrite ? <NoPermission permission={WRITE_PERMISSION} /> : null}
      <DoneNote onClose={() => setNote(null)} data-testid="c2c-note">
        {note}
      </DoneNote>
      <ErrorNote error={offers.error} />
      <Group>
        <Select
          label={t('offers.merchant')}
          placeholder={t('offers.allMerchants')}
          data={merchantList.map((m) => ({ value: m.merchant_id, label: m.name }))}
          value={merchantId}
          onChange={setMerchantId}
          clearable
          data-testid="c2c-offers-merchant"
        />
        <Select
          label={t('offers.state')}
          placeholder={t('offers.allStates')}
          data={C2C_OFFER_STATES.map((s) => ({ value: s, label: t(`offerState.${s}`) }))}
          value={state}
          onChange={(v) => setStateFilter(v as C2cOfferState | null)}
          clearable
          data-testid="c2c-offers-state"
        />
      </Group>
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={1300}>
            <Table fz="sm" verticalSpacing={6} striped data-testid="c2c-offers">
              <Table.Thead>
                <Table.Tr>
                  {heads.map((h) => (
                    <Table.Th key={h}>{t(`offers.${h}`)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((o) => (
                  <OfferRow
                    key={o.offer_id}
                    offer={o}
                    canWrite={canWrite}
                    onEdit={() => setEditing(o)}
                    onAct={(s) => setActing({ offer: o, state: s })}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <OfferFormModal
        opened={creating || editing !== null}
        offer={editing}
        merchants={merchantList}
        onClose={() => {
          setCreating(false);
          setEditing(null);
        }}
        onSaved={setNote}
      />
      <ReasonDialog
        opened={acting !== null}
        title={
          acting
            ? t('offerAction.title', {
                action: t(acting.state === 'paused' ? 'offers.pause' : 'offers.resume'),
                id: acting.offer.offer_id,
              })
            : ''
        }
        text={
          acting
            ? t(acting.state === 'paused' ? 'offerAction.pauseText' : 'offerAction.resumeText', {
                merchant: acting.offer.merchant_name,
                pair: `${acting.offer.coin}/${acting.offer.fiat}`,
              })
            : undefined
        }
        confirmLabel={acting ? t(acting.state === 'paused' ? 'offers.pause' : 'offers.resume') : ''}
        danger={acting?.state === 'paused'}
        onClose={() => setActing(null)}
        onSubmit={async (reason) => {
          if (!acting) return;
          if (reason.trim().length < REASON_MIN)
            throw new Error(t('common.reasonShort', { min: REASON_MIN }));
          await setState.mutateAsync({
            id: acting.offer.offer_id,
            state: acting.state,
            reason: reason.trim(),
          });
          setNote(
            t('offerAction.done', { id: acting.offer.offer_id, state: t(`offerState.${acting.state}`) }),
          );
        }}
      />
    </Stack>
  );
}
