import type { C2cMerchantData, C2cOfferData } from '@bourse/protocol';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote, Figure, ReasonDialog } from '../../app/ui.tsx';
import { useAddMerchant, useC2cMerchants, useC2cOffers, useMerchantState } from './api.ts';
import {
  MerchantStateBadge,
  NoPermission,
  REASON_MIN,
  useC2cStaff,
  useRateText,
  WRITE_PERMISSION,
} from './parts.tsx';

type Acting = { merchant: C2cMerchantData; state: 'approved' | 'suspended' };

function openOffersOf(offers: C2cOfferData[], merchantId: string): number {
  return offers.filter((o) => o.merchant_id === merchantId && o.state === 'active').length;
}

function MerchantRow(props: {
  merchant: C2cMerchantData;
  openOffers: number;
  canWrite: boolean;
  onAct: (state: Acting['state']) => void;
}) {
  const { t } = useTranslation('adminC2c');
  const lang = useLang();
  const rate = useRateText();
  const m = props.merchant;
  return (
    <Table.Tr data-testid="c2c-merchant" data-merchant={m.merchant_id} data-state={m.state}>
      <Table.Td>
        <Figure>{m.uid ?? '—'}</Figure>
        <Text size="xs" c="dimmed">
          {m.merchant_id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{m.name}</Text>
        {m.is_operator ? (
          <Badge size="xs" variant="outline" data-testid="c2c-merchant-operator-flag">
            {t('merchants.operatorDesk')}
          </Badge>
        ) : null}
      </Table.Td>
      <Table.Td>
        <MerchantStateBadge state={m.state} />
        {m.reason ? (
          <Text size="xs" c="dimmed">
            {m.reason}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td data-testid="c2c-merchant-rate">
        <Figure>{rate(m.completion_rate)}</Figure>
        <Text size="xs" c="dimmed">
          {t('merchants.done', { count: m.orders_done })}
        </Text>
      </Table.Td>
      <Table.Td data-testid="c2c-merchant-release">
        <Figure>
          {m.avg_release_minutes === null ? '—' : t('common.minutes', { count: m.avg_release_minutes })}
        </Figure>
      </Table.Td>
      <Table.Td data-testid="c2c-merchant-offers">
        <Figure>{props.openOffers}</Figure>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="xs">{formatTime(m.created_at, lang)}</Text>
        {m.decided_at ? (
          <Text size="xs" c="dimmed">
            {formatTime(m.decided_at, lang)}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        {props.canWrite ? (
          <Group gap={4} wrap="nowrap">
            {m.state !== 'approved' ? (
              <Button
                size="compact-xs"
                variant="default"
                onClick={() => props.onAct('approved')}
                data-testid="c2c-merchant-approve"
              >
                {t('merchants.approve')}
              </Button>
            ) : null}
            {m.state !== 'suspended' ? (
              <Button
                size="compact-xs"
                variant="light"
                color="red"
                onClick={() => props.onAct('suspended')}
                data-testid="c2c-merchant-suspend"
              >
                {t('merchants.suspend')}
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

/** Make a customer a merchant by uid (the server asks for advanced verification; a refusal stays here). */
function AddMerchantModal(props: { opened: boolean; onClose: () => void; onDone: (text: string) => void }) {
  const { t } = useTranslation('adminC2c');
  const add = useAddMerchant();
  const [uid, setUid] = useState('');
  const [name, setName] = useState('');
  const [operator, setOperator] = useState(false);
  const [reason, setReason] = useState('');
  const [bad, setBad] = useState<Set<string>>(new Set());
  const close = () => {
    setBad(new Set());
    add.reset();
    props.onClose();
  };
  const submit = () => {
    const problems = new Set<string>();
    if (uid.trim() === '') problems.add('uid');
    if (name.trim().length < 2) problems.add('name');
    if (reason.trim().length < REASON_MIN) problems.add('reason');
    setBad(problems);
    if (problems.size > 0) return;
    add.mutate(
      { uid: uid.trim(), name: name.trim(), is_operator: operator, reason: reason.trim() },
      {
        onSuccess: (done) => {
          props.onDone(t('merchantForm.added', { name: name.trim(), uid: uid.trim(), id: done.merchant_id }));
          setUid('');
          setName('');
          setOperator(false);
          setReason('');
          close();
        },
      },
    );
  };
  return (
    <Modal opened={props.opened} onClose={close} title={t('merchantForm.title')} centered size="lg">
      <Stack data-testid="c2c-merchant-form">
        <Text size="sm" c="dimmed">
          {t('merchantForm.intro')}
        </Text>
        <TextInput
          label={t('merchantForm.uid')}
          value={uid}
          onChange={(e) => setUid(e.currentTarget.value)}
          error={bad.has('uid')}
          maxLength={32}
          data-testid="c2c-merchant-uid"
        />
        <TextInput
          label={t('merchantForm.name')}
          description={t('merchantForm.nameHint')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={bad.has('name')}
          maxLength={100}
          data-testid="c2c-merchant-name"
        />
        <Checkbox
          label={t('merchantForm.operator')}
          description={t('merchantForm.operatorHint')}
          checked={operator}
          onChange={(e) => setOperator(e.currentTarget.checked)}
          data-testid="c2c-merchant-operator"
        />
        <Textarea
          label={t('common.reason')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={bad.has('reason') ? t('common.reasonShort', { min: REASON_MIN }) : undefined}
          maxLength={500}
          autosize
          minRows={2}
          data-testid="c2c-merchant-reason"
        />
        <ErrorNote error={add.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button loading={add.isPending} onClick={submit} data-testid="c2c-merchant-submit">
            {t('merchantForm.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * C2C merchants with their record (completion rate, mean release time, open offers); add a customer
 * as a merchant, approve or suspend one — each with a reason, audited.
 */
export default function MerchantsScreen() {
  const { t } = useTranslation('adminC2c');
  const merchants = useC2cMerchants();
  const offers = useC2cOffers();
  const setState = useMerchantState();
  const { canWrite } = useC2cStaff();
  const [adding, setAdding] = useState(false);
  const [acting, setActing] = useState<Acting | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const items = merchants.data ?? [];
  const offerList = offers.data ?? [];
  const heads = ['uid', 'name', 'state', 'completion', 'release', 'openOffers', 'since', 'actions'] as const;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('merchants.title')}</Title>
        <Group>
          <Button variant="default" size="xs" onClick={() => void merchants.refetch()}>
            {t('common.refresh')}
          </Button>
          {canWrite ? (
            <Button size="xs" onClick={() => setAdding(true)} data-testid="c2c-merchant-add">
              {t('merchants.add')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('merchants.intro')}
      </Text>
      {!canWrite ? <NoPermission permission={WRITE_PERMISSION} /> : null}
      <DoneNote onClose={() => setNote(null)} data-testid="c2c-note">
        {note}
      </DoneNote>
      <ErrorNote error={merchants.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={1100}>
            <Table fz="sm" verticalSpacing={6} striped data-testid="c2c-merchants">
              <Table.Thead>
                <Table.Tr>
                  {heads.map((h) => (
                    <Table.Th key={h}>{t(`merchants.${h}`)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((m) => (
                  <MerchantRow
                    key={m.merchant_id}
                    merchant={m}
                    openOffers={openOffersOf(offerList, m.merchant_id)}
                    canWrite={canWrite}
                    onAct={(state) => setActing({ merchant: m, state })}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <AddMerchantModal opened={adding} onClose={() => setAdding(false)} onDone={setNote} />
      <ReasonDialog
        opened={acting !== null}
        title={
          acting
            ? t('merchantAction.title', {
                action: t(acting.state === 'approved' ? 'merchants.approve' : 'merchants.suspend'),
                name: acting.merchant.name,
              })
            : ''
        }
        text={
          acting
            ? t(acting.state === 'approved' ? 'merchantAction.approveText' : 'merchantAction.suspendText', {
                name: acting.merchant.name,
                uid: acting.merchant.uid ?? '—',
                offers: openOffersOf(offerList, acting.merchant.merchant_id),
              })
            : undefined
        }
        confirmLabel={
          acting ? t(acting.state === 'approved' ? 'merchants.approve' : 'merchants.suspend') : ''
        }
        danger={acting?.state === 'suspended'}
        onClose={() => setActing(null)}
        onSubmit={async (reason) => {
          if (!acting) return;
          if (reason.trim().length < REASON_MIN)
            throw new Error(t('common.reasonShort', { min: REASON_MIN }));
          await setState.mutateAsync({
            id: acting.merchant.merchant_id,
            state: acting.state,
            reason: reason.trim(),
          });
          setNote(
            t('merchantAction.done', {
              name: acting.merchant.name,
              state: t(`merchantState.${acting.state}`),
            }),
          );
        }}
      />
    </Stack>
  );
}
