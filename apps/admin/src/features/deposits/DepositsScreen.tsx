import type { DocumentLinkData } from '@bourse/protocol';
import { Badge, Button, Group, Image, Modal, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ErrorNote, Figure, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { CustomerCell, CustomerDrawer, type CustomerSummaryData } from '../customers/CustomerSummary.tsx';

type Crypto = {
  id: string;
  customer_id: string;
  chain: string;
  currency: string;
  txid: string;
  output_index: number;
  address: string;
  amount: string;
  confirmations: number;
  state: 'pending' | 'held' | 'credited' | 'failed';
  created_at: number;
  customer: CustomerSummaryData | null;
};
type Bank = {
  id: string;
  customer_id: string;
  currency: string;
  amount: string;
  reference: string;
  proof_id: string;
  state: 'pending' | 'confirmed' | 'rejected';
  reject_reason: string | null;
  created_at: number;
  customer: CustomerSummaryData | null;
};
const COLOR = {
  pending: 'yellow',
  held: 'orange',
  credited: 'green',
  confirmed: 'green',
  failed: 'red',
  rejected: 'red',
} as const;

const CALL = {
  confirm: 'deposits/bank/confirm',
  reject: 'deposits/bank/reject',
  release: 'deposits/crypto/release',
} as const;
const DIALOG = {
  confirm: { title: 'admin.confirmTitle', label: 'admin.confirm' },
  reject: { title: 'admin.reject', label: 'admin.reject' },
  release: { title: 'admin.release', label: 'admin.release' },
} as const;

/** The deposits queue: crypto deposits (waiting, held below the minimum) and bank deposits to confirm or reject. */
export default function DepositsScreen() {
  const { t } = useTranslation('assets');
  const amountText = useAmountText();
  const lang = useLang();
  const client = useQueryClient();
  const [all, setAll] = useState(false);
  const [deciding, setDeciding] = useState<{
    kind: 'reject' | 'release' | 'confirm';
    id: string;
    text: string;
  } | null>(null);
  // The proof on screen: a 5-minute link issued for this staff member (each one audited as a view).
  const [proof, setProof] = useState<DocumentLinkData | null>(null);
  const [proofError, setProofError] = useState<unknown>(null);
  const [shown, setShown] = useState<CustomerSummaryData | null>(null);
  const queue = useQuery({
    queryKey: ['deposits/queue', all],
    queryFn: () =>
      api.get<{ crypto: Crypto[]; bank: Bank[] }>('deposits/queue', { status: all ? 'all' : 'open' }),
  });
  const showProof = async (depositId: string) => {
    setProofError(null);
    try {
      setProof(await api.get<DocumentLinkData>('deposits/proofLink', { id: depositId }));
    } catch (error) {
      setProofError(error);
    }
  };
  const crypto = queue.data?.crypto ?? [];
  const bank = queue.data?.bank ?? [];
  return (
    <Stack data-testid="deposits-screen">
      <Group justify="space-between">
        <Title order={2}>{t('admin.queue')}</Title>
        <Switch label={t('admin.showAll')} checked={all} onChange={(e) => setAll(e.currentTarget.checked)} />
      </Group>
      <ErrorNote error={queue.error} />
      <ErrorNote error={proofError} />
      <Title order={3} size="h4">
        {t('admin.bank')}
      </Title>
      {bank.length === 0 ? (
        <Text c="dimmed">{t('admin.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped data-testid="deposits-bank">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.created')}</Table.Th>
                <Table.Th>{t('admin.customer')}</Table.Th>
                <Table.Th ta="right">{t('admin.amount')}</Table.Th>
                <Table.Th>{t('admin.reference')}</Table.Th>
                <Table.Th>{t('admin.proof')}</Table.Th>
                <Table.Th>{t('admin.state')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bank.map((b) => (
                <Table.Tr key={b.id}>
                  <Table.Td>
                    <Figure>{formatTime(b.created_at, lang)}</Figure>
                  </Table.Td>
                  <Table.Td>
                    <CustomerCell customer={b.customer} onOpen={() => setShown(b.customer)} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Amount value={b.amount} currency={b.currency} suffix />
                  </Table.Td>
                  <Table.Td>{b.reference}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="subtle"
                      onClick={() => showProof(b.id)}
                      data-testid="deposit-proof"
                    >
                      {t('admin.viewProof')}
                    </Button>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={COLOR[b.state]}>{t(`admin.states.${b.state}`)}</Badge>
                    {b.reject_reason ? <Text size="xs">{b.reject_reason}</Text> : null}
                  </Table.Td>
                  <Table.Td>
                    {b.state === 'pending' ? (
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          data-testid="deposit-confirm"
                          onClick={() =>
                            setDeciding({
                              kind: 'confirm',
                              id: b.id,
                              text: `${amountText(b.amount, b.currency)} · ${b.customer?.name ?? ''} · UID ${b.customer?.uid ?? ''} · ${b.reference}`,
                            })
                          }
                        >
                          {t('admin.confirm')}
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          onClick={() =>
                            setDeciding({
                              kind: 'reject',
                              id: b.id,
                              text: `${amountText(b.amount, b.currency)} · ${b.reference}`,
                            })
                          }
                        >
                          {t('admin.reject')}
                        </Button>
                      </Group>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Title order={3} size="h4">
        {t('admin.crypto')}
      </Title>
      {crypto.length === 0 ? (
        <Text c="dimmed">{t('admin.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={1000}>
          <Table striped data-testid="deposits-crypto">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.created')}</Table.Th>
                <Table.Th>{t('admin.customer')}</Table.Th>
                <Table.Th>{t('admin.chain')}</Table.Th>
                <Table.Th>{t('admin.txid')}</Table.Th>
                <Table.Th ta="right">{t('admin.amount')}</Table.Th>
                <Table.Th ta="right">{t('admin.confirmations')}</Table.Th>
                <Table.Th>{t('admin.state')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {crypto.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <Figure>{formatTime(c.created_at, lang)}</Figure>
                  </Table.Td>
                  <Table.Td>
                    <CustomerCell customer={c.customer} onOpen={() => setShown(c.customer)} />
                  </Table.Td>
                  <Table.Td>{c.chain}</Table.Td>
                  <Table.Td>
                    <Text
                      size="xs"
                      ff="monospace"
                      truncate="end"
                      maw={220}
                      title={`${c.txid}:${c.output_index}`}
                    >
                      {c.txid}:{c.output_index}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Amount value={c.amount} currency={c.currency} suffix />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Figure>{c.confirmations}</Figure>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={COLOR[c.state]}>{t(`admin.states.${c.state}`)}</Badge>
                  </Table.Td>
                  <Table.Td>
                    {c.state === 'held' ? (
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() =>
                          setDeciding({
                            kind: 'release',
                            id: c.id,
                            text: `${amountText(c.amount, c.currency)} · ${c.customer?.name ?? ''} · UID ${c.customer?.uid ?? ''}`,
                          })
                        }
                      >
                        {t('admin.release')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ReasonDialog
        opened={deciding !== null}
        title={t(DIALOG[deciding?.kind ?? 'reject'].title)}
        text={
          deciding
            ? `${deciding.text}${deciding.kind === 'confirm' ? `. ${t('admin.confirmText')}` : ''}`
            : ''
        }
        confirmLabel={t(DIALOG[deciding?.kind ?? 'reject'].label)}
        danger={deciding?.kind === 'reject'}
        onClose={() => setDeciding(null)}
        onSubmit={async (reason) => {
          if (!deciding) return;
          await api.post(CALL[deciding.kind], { id: deciding.id, reason });
          setDeciding(null);
          await client.invalidateQueries({ queryKey: ['deposits/queue'] });
        }}
      />
      <CustomerDrawer customer={shown} title={shown?.name ?? ''} onClose={() => setShown(null)} />
      <Modal
        opened={proof !== null}
        onClose={() => setProof(null)}
        title={t('admin.proof')}
        size="lg"
        centered
      >
        {proof ? (
          <Image
            src={proof.url}
            alt={t('admin.proof')}
            fit="contain"
            mah="70vh"
            data-testid="deposit-proof-image"
          />
        ) : null}
      </Modal>
    </Stack>
  );
}
