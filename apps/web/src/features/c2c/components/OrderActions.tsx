import { C2C_DISPUTE_REASONS, C2C_LIMITS, type C2cDisputeReason, type C2cOrderData } from '@bourse/protocol';
import { CopyField } from '@bourse/ui';
import {
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { uploaderFor } from '../../../shared/upload/api.ts';
import { DocumentUpload } from '../../../shared/upload/DocumentUpload.tsx';
import { useCancelOrder, useConfirmReceived, useMarkPaid, useOpenDispute, useVerifiedName } from '../api.ts';
import { payToLines } from '../logic.ts';
import { ErrorNote, useC2cWords } from './parts.tsx';

const uploadProof = uploaderFor('remittance_proof');

/** A yes/no dialog before an action that cannot be undone. */
function ConfirmDialog({
  opened,
  onClose,
  title,
  body,
  confirm,
  onConfirm,
  color,
  testId,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  body: string;
  confirm: string;
  onConfirm: () => void;
  color?: string;
  testId: string;
}) {
  const { t } = useTranslation('c2c');
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered data-testid={testId}>
      <Stack gap="sm">
        <Text size="sm">{body}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color={color} onClick={onConfirm} data-testid={`${testId}-yes`}>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Where the fiat goes: the receiver's account, each field with a copy button. */
export function PayToCard({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  if (!order.pay_to) return null;
  return (
    <Paper withBorder radius="lg" p="md" data-testid="c2c-pay-to" data-method={order.pay_to.method}>
      <Stack gap="sm">
        <Text fw={700}>
          {order.i_pay ? t('order.payTo') : t('order.payToReceiver')} · {words.method(order.pay_to.method)}
        </Text>
        {order.i_pay ? (
          <Text size="sm" c="dimmed">
            {t('order.payToHint', { total: words.fiat(order.fiat_amount), fiat: order.fiat })}
          </Text>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {order.i_pay ? (
            <CopyField
              label={t('order.total')}
              value={order.fiat_amount}
              copyLabel={t('common.copy')}
              copiedLabel={t('common.copied')}
              testId="pay-to-amount"
            />
          ) : null}
          {payToLines(order.pay_to).map((line) => (
            <CopyField
              key={line.field}
              label={t(`field.${line.field}`)}
              value={line.value}
              copyLabel={t('common.copy')}
              copiedLabel={t('common.copied')}
              testId={`pay-to-${line.field}`}
              mono={line.field !== 'name' && line.field !== 'bank_name' && line.field !== 'bank_address'}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

/** The payer on a matched order: name (the verified one), bank, proof, "I have paid"; or cancel. */
export function PayerForm({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const verified = useVerifiedName();
  const markPaid = useMarkPaid();
  const cancel = useCancelOrder();
  const [name, setName] = useState<string | null>(null);
  const [bank, setBank] = useState('');
  const [proofId, setProofId] = useState<string | null>(null);
  const [asking, setAsking] = useState<'paid' | 'cancel' | null>(null);
  const payerName = name ?? verified.data ?? '';
  // The demo desk (play money) takes no proof; the real book always needs one.
  const proofRequired = order.book !== 'demo';
  const ready = payerName.trim() !== '' && bank.trim() !== '' && (proofId !== null || !proofRequired);
  const error = markPaid.error ?? cancel.error;
  return (
    <Paper withBorder radius="lg" p="md" data-testid="c2c-payer-form">
      <Stack gap="sm">
        <Text fw={700}>{t('order.payerTitle')}</Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('order.payerName')}
            description={t('order.payerNameHint')}
            value={payerName}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={C2C_LIMITS.nameMax}
            data-testid="payer-name"
          />
          <TextInput
            label={t('order.payerBank')}
            value={bank}
            onChange={(e) => setBank(e.currentTarget.value)}
            maxLength={C2C_LIMITS.nameMax}
            data-testid="payer-bank"
          />
        </SimpleGrid>
        <DocumentUpload
          label={t('order.proof')}
          description={t('order.proofHint')}
          upload={uploadProof}
          onUploaded={(stored) => setProofId(stored.id)}
          testId="payer-proof"
        />
        {proofId === null && proofRequired ? (
          <Text size="xs" c="dimmed">
            {t('order.proofNeeded')}
          </Text>
        ) : null}
        {error instanceof ApiError ? <ErrorNote error={error} /> : null}
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Button
            variant="subtle"
            color="gray"
            onClick={() => setAsking('cancel')}
            loading={cancel.isPending}
            data-testid="order-cancel"
          >
            {t('order.cancelButton')}
          </Button>
          <Button
            color="teal"
            disabled={!ready}
            loading={markPaid.isPending}
            onClick={() => setAsking('paid')}
            data-testid="order-paid"
          >
            {t('order.paidButton')}
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={asking === 'paid'}
        onClose={() => setAsking(null)}
        title={t('order.paidConfirmTitle')}
        body={t('order.paidConfirmBody')}
        confirm={t('order.paidConfirm')}
        color="teal"
        testId="order-paid-confirm"
        onConfirm={() => {
          setAsking(null);
          if (proofId === null && proofRequired) return;
          markPaid.mutate({
            order_id: order.order_id,
            payer_name: payerName.trim(),
            payer_bank: bank.trim(),
            ...(proofId !== null ? { proof_id: proofId } : {}),
          });
        }}
      />
      <ConfirmDialog
        opened={asking === 'cancel'}
        onClose={() => setAsking(null)}
        title={t('order.cancelConfirmTitle')}
        body={t('order.cancelConfirmBody')}
        confirm={t('order.cancelConfirm')}
        color="red"
        testId="order-cancel-confirm"
        onConfirm={() => {
          setAsking(null);
          cancel.mutate({ order_id: order.order_id });
        }}
      />
    </Paper>
  );
}

/** The receiver on a paid order: check the bank account itself, then release. */
export function ReceiverPanel({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const words = useC2cWords();
  const confirm = useConfirmReceived();
  const [asking, setAsking] = useState(false);
  return (
    <Paper withBorder radius="lg" p="md" data-testid="c2c-receiver">
      <Stack gap="sm">
        <Alert color="red" variant="light" p="sm" data-testid="c2c-received-warning">
          <Text size="sm">{t('order.receivedWarning')}</Text>
        </Alert>
        {confirm.error instanceof ApiError ? <ErrorNote error={confirm.error} /> : null}
        <Button
          color="teal"
          onClick={() => setAsking(true)}
          loading={confirm.isPending}
          data-testid="order-received"
        >
          {t('order.receivedButton')}
        </Button>
      </Stack>
      <ConfirmDialog
        opened={asking}
        onClose={() => setAsking(false)}
        title={t('order.receivedConfirmTitle')}
        body={t('order.receivedConfirmBody', { amount: words.exact(order.amount), coin: order.coin })}
        confirm={t('order.receivedConfirm')}
        color="teal"
        testId="order-received-confirm"
        onConfirm={() => {
          setAsking(false);
          confirm.mutate({ order_id: order.order_id });
        }}
      />
    </Paper>
  );
}

/** Either side on a paid order: a reason, a note and up to five evidence uploads. */
export function DisputeForm({ order }: { order: C2cOrderData }) {
  const { t } = useTranslation('c2c');
  const dispute = useOpenDispute();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<C2cDisputeReason | null>(null);
  const [note, setNote] = useState('');
  const [evidence, setEvidence] = useState<string[]>([]);
  const slots = Math.min(evidence.length + 1, C2C_LIMITS.evidencePerDisputeMax);
  const ready = reason !== null && note.trim() !== '';
  if (!open)
    return (
      <Button variant="light" color="orange" onClick={() => setOpen(true)} data-testid="order-dispute">
        {t('order.disputeButton')}
      </Button>
    );
  return (
    <Paper withBorder radius="lg" p="md" data-testid="c2c-dispute-form">
      <Stack gap="sm">
        <Text fw={700}>{t('order.disputeTitle')}</Text>
        <Select
          label={t('order.disputeReason')}
          value={reason}
          onChange={(value) => setReason(value as C2cDisputeReason | null)}
          data={C2C_DISPUTE_REASONS.map((r) => ({ value: r, label: t(`disputeReason.${r}`) }))}
          data-testid="dispute-reason"
          comboboxProps={{ withinPortal: false }}
        />
        <Textarea
          label={t('order.disputeNote')}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={C2C_LIMITS.noteMax}
          rows={4}
          data-testid="dispute-note"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {Array.from({ length: slots }, (_, i) => (
            <DocumentUpload
              // biome-ignore lint/suspicious/noArrayIndexKey: a slot is its position
              key={i}
              label={t('order.disputeEvidence', { n: i + 1 })}
              upload={uploadProof}
              onUploaded={(stored) => {
                const next = [...evidence];
                next[i] = stored.id;
                setEvidence(next);
              }}
              testId={`dispute-evidence-${i + 1}`}
            />
          ))}
        </SimpleGrid>
        {dispute.error instanceof ApiError ? <ErrorNote error={dispute.error} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => setOpen(false)}>
            {t('common.cancel')}
          </Button>
          <Button
            color="orange"
            disabled={!ready}
            loading={dispute.isPending}
            data-testid="dispute-submit"
            onClick={() => {
              if (reason === null) return;
              const ids = evidence.filter(Boolean);
              dispute.mutate({
                order_id: order.order_id,
                reason,
                note: note.trim(),
                ...(ids.length > 0 ? { evidence_ids: ids.join(',') } : {}),
              });
            }}
          >
            {t('order.disputeSubmit')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
