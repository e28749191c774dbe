import type { AdminFundingAccountData, AdminFundingRequestData } from '@bourse/protocol';
import { EARN_LIMITS, LANGS } from '@bourse/protocol';
import {
  Alert,
  Button,
  Card,
  Group,
  Modal,
  Select,
  SimpleGrid,
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
import { Amount, DoneNote, ErrorNote, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import {
  useCreateFunding,
  useDecideFunding,
  useFundingAccounts,
  useFundingRequests,
  useRequestFunding,
} from './api.ts';
import { NoPermission, RequestStateBadge, usePermission } from './parts.tsx';

const CURRENCIES = ['USDT', 'USDC', 'BTC', 'ETH', 'TRX', 'BNB', 'SOL', 'USD', 'EUR', 'HKD', 'CNY'];

/** A new named funding account: its name, the source in three languages, the currency, a reason. */
function CreateFundingModal({
  opened,
  onClose,
  onDone,
}: {
  opened: boolean;
  onClose: () => void;
  onDone: (id: string) => void;
}) {
  const { t } = useTranslation('adminEarn');
  const create = useCreateFunding();
  const [name, setName] = useState('');
  const [source, setSource] = useState({ en: '', zh: '', ft: '' });
  const [currency, setCurrency] = useState('USDT');
  const [reason, setReason] = useState('');
  const ready =
    name.trim() !== '' &&
    LANGS.every((l) => source[l].trim() !== '') &&
    reason.trim().length >= EARN_LIMITS.reasonMin;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('funding.new')}
      size="xl"
      centered
      data-testid="funding-create"
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('funding.name')}
            value={name}
            maxLength={EARN_LIMITS.nameMax}
            onChange={(e) => setName(e.currentTarget.value)}
            data-testid="funding-name"
          />
          <Select
            label={t('funding.currency')}
            data={CURRENCIES}
            value={currency}
            allowDeselect={false}
            onChange={(v) => setCurrency(v ?? 'USDT')}
            data-testid="funding-currency"
          />
        </SimpleGrid>
        {LANGS.map((lang) => (
          <Textarea
            key={lang}
            label={`${t('funding.source')} · ${t(`lang.${lang}`)}`}
            value={source[lang]}
            maxLength={EARN_LIMITS.textMax}
            autosize
            minRows={2}
            onChange={(e) => setSource({ ...source, [lang]: e.currentTarget.value })}
            data-testid={`funding-source-${lang}`}
          />
        ))}
        <Textarea
          label={t('common.reason')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={EARN_LIMITS.reasonMax}
          data-testid="funding-reason"
        />
        <ErrorNote error={create.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={!ready}
            loading={create.isPending}
            data-testid="funding-create-submit"
            onClick={() =>
              create.mutate(
                {
                  name: name.trim(),
                  source: { en: source.en.trim(), zh: source.zh.trim(), ft: source.ft.trim() },
                  currency,
                  reason: reason.trim(),
                },
                { onSuccess: (account) => onDone(account.funding_id) },
              )
            }
          >
            {t('funding.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Request funding (a money action): amount and reason, then a confirmation stating amount, currency,
 * account, who asks and why. It only asks — another staff member approves.
 */
function RequestFundingModal({
  account,
  onClose,
  onDone,
}: {
  account: AdminFundingAccountData | null;
  onClose: () => void;
  onDone: (id: string) => void;
}) {
  const { t } = useTranslation('adminEarn');
  const me = usePermission('earn.fund');
  const amountText = useAmountText();
  const request = useRequestFunding();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const close = () => {
    setAmount('');
    setReason('');
    setConfirming(false);
    onClose();
  };
  if (!account) return null;
  const ready = /^\d+(\.\d+)?$/.test(amount.trim()) && reason.trim().length >= EARN_LIMITS.reasonMin;
  return (
    <Modal
      opened
      onClose={close}
      title={confirming ? t('funding.confirmTitle') : t('funding.requestTitle', { name: account.name })}
      centered
      size="lg"
      data-testid="funding-request"
    >
      {confirming ? (
        <Stack data-testid="funding-request-confirm">
          <Text fw={700} size="lg" data-testid="funding-request-summary">
            +{amountText(amount.trim(), account.currency)}
          </Text>
          <Text size="sm">
            {t('funding.confirmText', {
              amount: amountText(amount.trim()),
              currency: account.currency,
              name: account.name,
              who: me.name ?? '—',
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('common.reason')}: {reason.trim()}
          </Text>
          <Alert color="blue" variant="light">
            {t('funding.requestNote')}
          </Alert>
          <ErrorNote error={request.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              loading={request.isPending}
              data-testid="funding-request-send"
              onClick={() =>
                request.mutate(
                  { id: account.funding_id, amount: amount.trim(), reason: reason.trim() },
                  {
                    onSuccess: (r) => {
                      onDone(r.request_id);
                      close();
                    },
                  },
                )
              }
            >
              {t('funding.send')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Alert color="blue" variant="light">
            {t('funding.requestNote')}
          </Alert>
          <TextInput
            label={`${t('funding.amount')} (${account.currency})`}
            value={amount}
            inputMode="decimal"
            maxLength={40}
            onChange={(e) => setAmount(e.currentTarget.value)}
            data-testid="funding-request-amount"
          />
          <Textarea
            label={t('common.reason')}
            value={reason}
            maxLength={EARN_LIMITS.reasonMax}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-testid="funding-request-reason"
          />
          <Group justify="flex-end">
            <Button disabled={!ready} onClick={() => setConfirming(true)} data-testid="funding-request-next">
              {t('funding.request')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

type Decision = 'approve' | 'reject';

/** One funding request; its requester sees that another staff member must decide it. */
function RequestRow({
  r,
  name,
  own,
  canDecide,
  onDecide,
}: {
  r: AdminFundingRequestData;
  name: string;
  own: boolean;
  canDecide: boolean;
  onDecide: (decision: Decision) => void;
}) {
  const { t } = useTranslation('adminEarn');
  const lang = useLang();
  return (
    <Table.Tr data-testid="funding-request-row" data-request={r.request_id} data-state={r.state}>
      <Table.Td>{formatTime(r.requested_at, lang)}</Table.Td>
      <Table.Td>{name}</Table.Td>
      <Table.Td>
        <Amount value={r.amount} currency={r.currency} suffix />
      </Table.Td>
      <Table.Td>{r.requested_by}</Table.Td>
      <Table.Td style={{ maxWidth: 260 }}>{r.reason}</Table.Td>
      <Table.Td>
        <RequestStateBadge state={r.state} />
      </Table.Td>
      <Table.Td>{r.decided_by ? `${r.decided_by} · ${r.decision_reason ?? ''}` : '—'}</Table.Td>
      <Table.Td>
        {r.state !== 'pending' ? null : own ? (
          <Text size="xs" c="orange" data-testid="funding-own-request">
            {t('funding.ownRequest')}
          </Text>
        ) : canDecide ? (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" onClick={() => onDecide('approve')} data-testid="funding-approve">
              {t('funding.approve')}
            </Button>
            <Button
              size="compact-xs"
              color="red"
              variant="light"
              onClick={() => onDecide('reject')}
              data-testid="funding-reject"
            >
              {t('funding.reject')}
            </Button>
          </Group>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

/** Approve or reject a request: amount, currency, account, who asked and why, then a reason. */
function DecideDialog({
  deciding,
  name,
  onClose,
  onDecided,
}: {
  deciding: { r: AdminFundingRequestData; decision: Decision } | null;
  name: string;
  onClose: () => void;
  onDecided: (text: string) => void;
}) {
  const { t } = useTranslation('adminEarn');
  const amountText = useAmountText();
  const decide = useDecideFunding();
  const approve = deciding?.decision === 'approve';
  return (
    <ReasonDialog
      opened={deciding !== null}
      title={
        deciding
          ? t(approve ? 'funding.approveTitle' : 'funding.rejectTitle', {
              amount: amountText(deciding.r.amount),
              currency: deciding.r.currency,
              name,
            })
          : ''
      }
      text={
        deciding
          ? t(approve ? 'funding.approveText' : 'funding.rejectText', {
              who: deciding.r.requested_by,
              reason: deciding.r.reason,
            })
          : undefined
      }
      confirmLabel={deciding ? t(approve ? 'funding.approve' : 'funding.reject') : ''}
      danger={deciding?.decision === 'reject'}
      onClose={onClose}
      onSubmit={async (reason) => {
        if (!deciding) return;
        const r = await decide.mutateAsync({
          id: deciding.r.request_id,
          decision: deciding.decision,
          reason,
        });
        onDecided(t('funding.decided', { id: r.request_id, state: t(`requestState.${r.state}`) }));
      }}
    />
  );
}

/**
 * Funding requests: every account's pending ones (the four-eyes queue), or one account's history.
 * A pending request can be approved or rejected by anyone holding earn.fund but its requester.
 */
function RequestsCard({
  title,
  filter,
  accounts,
  onDecided,
  testId,
}: {
  title: string;
  filter: { funding_id?: string; state?: 'pending' };
  accounts: AdminFundingAccountData[];
  onDecided: (text: string) => void;
  testId: string;
}) {
  const { t } = useTranslation('adminEarn');
  const fund = usePermission('earn.fund');
  const requests = useFundingRequests(filter);
  const [deciding, setDeciding] = useState<{
    r: AdminFundingRequestData;
    decision: 'approve' | 'reject';
  } | null>(null);
  const nameOf = (id: string) => accounts.find((a) => a.funding_id === id)?.name ?? id;
  const items = requests.data?.items ?? [];
  return (
    <Card withBorder data-testid={testId}>
      <Title order={4} mb="sm">
        {title}
      </Title>
      <ErrorNote error={requests.error} />
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('common.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table fz="sm" verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('funding.requestedAt')}</Table.Th>
                <Table.Th>{t('funding.name')}</Table.Th>
                <Table.Th>{t('funding.amount')}</Table.Th>
                <Table.Th>{t('funding.requestedBy')}</Table.Th>
                <Table.Th>{t('common.reason')}</Table.Th>
                <Table.Th>{t('common.status')}</Table.Th>
                <Table.Th>{t('funding.decidedBy')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((r) => (
                <RequestRow
                  key={r.request_id}
                  r={r}
                  name={nameOf(r.funding_id)}
                  own={r.requested_by === fund.staffId}
                  canDecide={fund.allowed}
                  onDecide={(decision) => setDeciding({ r, decision })}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <DecideDialog
        deciding={deciding}
        name={deciding ? nameOf(deciding.r.funding_id) : ''}
        onClose={() => setDeciding(null)}
        onDecided={onDecided}
      />
    </Card>
  );
}

/** The funding accounts with their balance, reserved, funded, paid and returned amounts, and source. */
function AccountsTable({
  items,
  canFund,
  onShowRequests,
  onRequest,
}: {
  items: AdminFundingAccountData[];
  canFund: boolean;
  onShowRequests: (id: string) => void;
  onRequest: (account: AdminFundingAccountData) => void;
}) {
  const { t } = useTranslation('adminEarn');
  const lang = useLang();
  return (
    <Card withBorder>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('common.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={1100}>
          <Table fz="sm" verticalSpacing={6} striped data-testid="funding-accounts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('funding.name')}</Table.Th>
                <Table.Th>{t('funding.balance')}</Table.Th>
                <Table.Th>{t('funding.reserved')}</Table.Th>
                <Table.Th>{t('funding.funded')}</Table.Th>
                <Table.Th>{t('funding.paid')}</Table.Th>
                <Table.Th>{t('funding.returned')}</Table.Th>
                <Table.Th>{t('funding.sourceShort')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((a) => (
                <Table.Tr key={a.funding_id} data-testid="funding-account" data-funding={a.funding_id}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {a.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {a.currency} · {a.funding_id}
                    </Text>
                  </Table.Td>
                  <Table.Td data-testid="funding-balance">
                    <Amount value={a.balance} currency={a.currency} />
                  </Table.Td>
                  <Table.Td>
                    <Amount value={a.reserved} currency={a.currency} />
                  </Table.Td>
                  <Table.Td>
                    <Amount value={a.funded_total} currency={a.currency} />
                  </Table.Td>
                  <Table.Td>
                    <Amount value={a.rewards_paid} currency={a.currency} />
                  </Table.Td>
                  <Table.Td>
                    <Amount value={a.returned} currency={a.currency} />
                  </Table.Td>
                  <Table.Td style={{ maxWidth: 320 }}>
                    <Text size="xs">{a.source[lang]}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-xs"
                        variant="default"
                        onClick={() => onShowRequests(a.funding_id)}
                        data-testid="funding-show-requests"
                      >
                        {t('funding.requests')}
                      </Button>
                      {canFund ? (
                        <Button
                          size="compact-xs"
                          onClick={() => onRequest(a)}
                          data-testid="funding-request-open"
                        >
                          {t('funding.request')}
                        </Button>
                      ) : null}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

/** Funding accounts: balances and flows; create; request funding; approve or reject (four eyes). */
export default function FundingScreen() {
  const { t } = useTranslation('adminEarn');
  const accounts = useFundingAccounts();
  const write = usePermission('earn.write');
  const fund = usePermission('earn.fund');
  const [creating, setCreating] = useState(false);
  const [requesting, setRequesting] = useState<AdminFundingAccountData | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const items = accounts.data?.items ?? [];
  const shown = items.find((a) => a.funding_id === selected) ?? null;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('funding.title')}</Title>
        <Group>
          <Button size="xs" variant="default" onClick={() => void accounts.refetch()}>
            {t('common.refresh')}
          </Button>
          {write.allowed ? (
            <Button size="xs" onClick={() => setCreating(true)} data-testid="funding-new">
              {t('funding.new')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('funding.intro')}
      </Text>
      {!fund.allowed ? <NoPermission permission="earn.fund" /> : null}
      <DoneNote onClose={() => setNote(null)} data-testid="earn-admin-note">
        {note}
      </DoneNote>
      <ErrorNote error={accounts.error} />
      <AccountsTable
        items={items}
        canFund={fund.allowed}
        onShowRequests={setSelected}
        onRequest={setRequesting}
      />
      <RequestsCard
        title={t('funding.pendingTitle')}
        filter={{ state: 'pending' }}
        accounts={items}
        onDecided={setNote}
        testId="funding-pending"
      />
      {shown ? (
        <RequestsCard
          title={t('funding.requestsTitle', { name: shown.name })}
          filter={{ funding_id: shown.funding_id }}
          accounts={items}
          onDecided={setNote}
          testId="funding-requests"
        />
      ) : null}
      <CreateFundingModal
        opened={creating}
        onClose={() => setCreating(false)}
        onDone={(id) => {
          setCreating(false);
          setNote(t('funding.createdDone', { id }));
        }}
      />
      <RequestFundingModal
        account={requesting}
        onClose={() => setRequesting(null)}
        onDone={(id) => {
          setNote(t('funding.sent', { id }));
          if (requesting) setSelected(requesting.funding_id);
        }}
      />
    </Stack>
  );
}
