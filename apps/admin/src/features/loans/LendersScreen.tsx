import { type AdminLenderData, type AdminLenderFundingData, LANGS, LOAN_LIMITS } from '@bourse/protocol';
import {
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import {
  useCreateLender,
  useFundingDecision,
  useFundingRequests,
  useLenders,
  useRequestFunding,
} from './api.ts';
import { NoPermission, Usdt, useLoanStaff, WRITE_PERMISSION } from './parts.tsx';

type Deciding = { request: AdminLenderFundingData; decision: 'approve' | 'reject' };

function LendersTable({
  items,
  canWrite,
  onFund,
}: {
  items: AdminLenderData[];
  canWrite: boolean;
  onFund: (l: AdminLenderData) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  return (
    <Table fz="sm" striped data-testid="loans-lenders">
      <Table.Thead>
        <Table.Tr>
          {(['name', 'source', 'available', 'outstanding', 'funded', 'actions'] as const).map((h) => (
            <Table.Th key={h}>{t(`lenders.${h}`)}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((l) => (
          <Table.Tr key={l.lender_id} data-testid="loans-lender" data-lender={l.lender_id}>
            <Table.Td>
              <Text size="sm">{l.name}</Text>
              <Text size="xs" c="dimmed">
                {l.lender_id}
              </Text>
            </Table.Td>
            <Table.Td>{l.source[lang]}</Table.Td>
            <Table.Td data-testid="loans-lender-available">
              <Usdt value={l.available} />
            </Table.Td>
            <Table.Td data-testid="loans-lender-outstanding">
              <Usdt value={l.outstanding} />
            </Table.Td>
            <Table.Td>
              <Usdt value={l.funded_total} />
            </Table.Td>
            <Table.Td>
              {canWrite ? (
                <Button
                  size="compact-xs"
                  variant="light"
                  onClick={() => onFund(l)}
                  data-testid="loans-lender-fund"
                >
                  {t('lenders.fund')}
                </Button>
              ) : null}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function FundingTable(props: {
  items: AdminLenderFundingData[];
  lenders: AdminLenderData[];
  staffId: string | null;
  canDecide: boolean;
  onDecide: (d: Deciding) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  const name = (id: string) => props.lenders.find((l) => l.lender_id === id)?.name ?? id;
  return (
    <Table fz="sm" striped data-testid="loans-funding">
      <Table.Thead>
        <Table.Tr>
          {(['lender', 'amount', 'reason', 'state', 'requestedBy', 'decidedBy', 'actions'] as const).map(
            (h) => (
              <Table.Th key={h}>{t(`funding.${h}`)}</Table.Th>
            ),
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.items.map((r) => (
          <Table.Tr
            key={r.request_id}
            data-testid="loans-funding-request"
            data-request={r.request_id}
            data-state={r.state}
          >
            <Table.Td>{name(r.lender_id)}</Table.Td>
            <Table.Td>
              <Usdt value={r.amount} />
            </Table.Td>
            <Table.Td>{r.reason}</Table.Td>
            <Table.Td>{t(`fundingState.${r.state}`)}</Table.Td>
            <Table.Td>{`${r.requested_by} · ${formatTime(r.requested_at, lang)}`}</Table.Td>
            <Table.Td>{r.decided_by ? `${r.decided_by} · ${r.decision_reason ?? ''}` : '—'}</Table.Td>
            <Table.Td>
              {r.state !== 'pending' || !props.canDecide ? null : r.requested_by === props.staffId ? (
                <Text size="xs" c="orange" data-testid="loans-funding-own">
                  {t('funding.own')}
                </Text>
              ) : (
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="compact-xs"
                    onClick={() => props.onDecide({ request: r, decision: 'approve' })}
                    data-testid="loans-funding-approve"
                  >
                    {t('funding.approve')}
                  </Button>
                  <Button
                    size="compact-xs"
                    color="red"
                    variant="light"
                    onClick={() => props.onDecide({ request: r, decision: 'reject' })}
                    data-testid="loans-funding-reject"
                  >
                    {t('funding.reject')}
                  </Button>
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function NewLender({
  opened,
  onClose,
  onDone,
}: {
  opened: boolean;
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const create = useCreateLender();
  const [name, setName] = useState('');
  const [source, setSource] = useState({ en: '', zh: '', ft: '' });
  return (
    <ReasonDialog
      opened={opened}
      size="lg"
      title={t('lenders.newTitle')}
      text={t('lenders.newText')}
      confirmLabel={t('lenders.create')}
      onClose={() => {
        setName('');
        setSource({ en: '', zh: '', ft: '' });
        onClose();
      }}
      onSubmit={async (reason) => {
        if (name.trim() === '' || LANGS.some((l) => source[l].trim() === ''))
          throw new Error(t('lenders.fieldsRequired'));
        if (reason.trim().length < LOAN_LIMITS.reasonMin)
          throw new Error(t('common.reasonShort', { min: LOAN_LIMITS.reasonMin }));
        const lender = await create.mutateAsync({ name: name.trim(), source, reason: reason.trim() });
        onDone(t('lenders.created', { name: lender.name }));
      }}
    >
      <TextInput
        label={t('lenders.name')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        data-testid="loans-lender-name"
      />
      <SimpleGrid cols={3}>
        {LANGS.map((l) => (
          <TextInput
            key={l}
            label={t('lenders.sourceIn', { lang: t(`lang.${l}`) })}
            value={source[l]}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setSource((s) => ({ ...s, [l]: v }));
            }}
            data-testid={`loans-lender-source-${l}`}
          />
        ))}
      </SimpleGrid>
    </ReasonDialog>
  );
}

/** Ask to pay operator money into a lender account (another staff member decides). */
function FundDialog(props: {
  lender: AdminLenderData | null;
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const amountText = useAmountText();
  const request = useRequestFunding();
  const [amount, setAmount] = useState('');
  const lender = props.lender;
  return (
    <ReasonDialog
      opened={lender !== null}
      title={lender ? t('lenders.fundTitle', { name: lender.name }) : ''}
      text={t('lenders.fundText')}
      confirmLabel={t('lenders.fund')}
      onClose={() => {
        setAmount('');
        props.onClose();
      }}
      onSubmit={async (reason) => {
        if (!lender) return;
        if (amount.trim() === '') throw new Error(t('lenders.amountRequired'));
        if (reason.trim().length < LOAN_LIMITS.reasonMin)
          throw new Error(t('common.reasonShort', { min: LOAN_LIMITS.reasonMin }));
        await request.mutateAsync({
          lenderId: lender.lender_id,
          amount: amount.trim(),
          reason: reason.trim(),
        });
        props.onDone(
          t('lenders.requested', { name: lender.name, amount: amountText(amount.trim(), 'USDT') }),
        );
      }}
    >
      <TextInput
        label={t('lenders.amount')}
        value={amount}
        onChange={(e) => setAmount(e.currentTarget.value)}
        data-testid="loans-fund-amount"
      />
    </ReasonDialog>
  );
}

/** Approve or reject another staff member's funding request: lender, amount and requester named. */
function FundingDecisionDialog(props: {
  deciding: Deciding | null;
  lenderName: (id: string) => string;
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const amountText = useAmountText();
  const decide = useFundingDecision();
  const { deciding, lenderName } = props;
  return (
    <ReasonDialog
      opened={deciding !== null}
      title={
        deciding
          ? t(`funding.${deciding.decision}Title`, { name: lenderName(deciding.request.lender_id) })
          : ''
      }
      text={
        deciding
          ? t(`funding.${deciding.decision}Text`, {
              name: lenderName(deciding.request.lender_id),
              amount: amountText(deciding.request.amount, 'USDT'),
              who: deciding.request.requested_by,
            })
          : undefined
      }
      confirmLabel={deciding ? t(`funding.${deciding.decision}`) : ''}
      danger={deciding?.decision === 'reject'}
      onClose={props.onClose}
      onSubmit={async (reason) => {
        if (!deciding) return;
        if (reason.trim().length < LOAN_LIMITS.reasonMin)
          throw new Error(t('common.reasonShort', { min: LOAN_LIMITS.reasonMin }));
        const r = await decide.mutateAsync({
          id: deciding.request.request_id,
          decision: deciding.decision,
          reason: reason.trim(),
        });
        props.onDone(
          t('funding.done', { name: lenderName(r.lender_id), state: t(`fundingState.${r.state}`) }),
        );
      }}
    />
  );
}

/**
 * Lender accounts (what each may lend and what borrowers owe it) and their funding: a staff member
 * asks to pay operator money in; another decides (four eyes, never the requester; audited).
 */
export default function LendersScreen() {
  const { t } = useTranslation('adminLoans');
  const lenders = useLenders();
  const [state, setState] = useState<'' | AdminLenderFundingData['state']>('pending');
  const funding = useFundingRequests(state);
  const { staffId, canWrite, canDecide } = useLoanStaff();
  const [funding_, setFunding] = useState<AdminLenderData | null>(null);
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const [creating, setCreating] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const items = lenders.data?.items ?? [];
  const lenderName = (id: string) => items.find((l) => l.lender_id === id)?.name ?? id;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('lenders.title')}</Title>
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() => {
              void lenders.refetch();
              void funding.refetch();
            }}
          >
            {t('common.refresh')}
          </Button>
          {canWrite ? (
            <Button size="xs" onClick={() => setCreating(true)} data-testid="loans-lender-new">
              {t('lenders.new')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('lenders.intro')}
      </Text>
      {!canWrite ? <NoPermission permission={WRITE_PERMISSION} /> : null}
      <DoneNote onClose={() => setNote(null)} data-testid="loans-note">
        {note}
      </DoneNote>
      <ErrorNote error={lenders.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <LendersTable items={items} canWrite={canWrite} onFund={setFunding} />
        )}
      </Card>
      <Title order={4}>{t('funding.title')}</Title>
      <SegmentedControl
        w="fit-content"
        value={state}
        onChange={(v) => setState(v as typeof state)}
        data={[
          ...(['pending', 'approved', 'rejected'] as const).map((s) => ({
            value: s,
            label: t(`fundingState.${s}`),
          })),
          { value: '', label: t('common.all') },
        ]}
      />
      <ErrorNote error={funding.error} />
      <Card withBorder>
        {(funding.data?.items ?? []).length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <FundingTable
            items={funding.data?.items ?? []}
            lenders={items}
            staffId={staffId}
            canDecide={canDecide}
            onDecide={setDeciding}
          />
        )}
      </Card>
      <FundDialog lender={funding_} onClose={() => setFunding(null)} onDone={setNote} />
      <FundingDecisionDialog
        deciding={deciding}
        lenderName={lenderName}
        onClose={() => setDeciding(null)}
        onDone={setNote}
      />
      <NewLender opened={creating} onClose={() => setCreating(false)} onDone={setNote} />
    </Stack>
  );
}
