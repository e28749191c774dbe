import type { ContractInstrumentData, ContractPositionData } from '@bourse/protocol';
import { Sheet } from '@bourse/ui';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { useAddMargin, useCloseContract, useSetTpSl } from '../api.ts';
import { amountBreak, closeLotsBreak, tpSlBreaks } from '../logic.ts';

export type PositionAction = 'partial' | 'tpsl' | 'margin';

function Refusal({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" p="xs" data-testid="action-refusal" data-reason={error.reason ?? ''}>
      <Text size="xs">{error.message}</Text>
    </Alert>
  );
}

const refusedOf = (error: unknown) => (error instanceof ApiError && error.kind === 'refused' ? error : null);

type ActionMutation<V> = {
  isPending: boolean;
  mutate: (vars: V, options: { onSuccess: () => void; onError: (error: unknown) => void }) => void;
};

/**
 * The scaffold every position action shares: its fields, then the submit button (loading while the
 * call runs; on success a notice and `onDone`, on a refusal the server's reason under the button).
 */
function ActionForm<V>({
  children,
  mutation,
  vars,
  doneMessage,
  onDone,
  disabled,
  color,
  submitLabel,
  submitTestId,
}: {
  children: ReactNode;
  mutation: ActionMutation<V>;
  vars: V;
  doneMessage: string;
  onDone: () => void;
  disabled: boolean;
  color?: string;
  submitLabel: string;
  submitTestId: string;
}) {
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  return (
    <Stack gap="sm">
      {children}
      <Button
        color={color}
        disabled={disabled}
        loading={mutation.isPending}
        onClick={() => {
          setRefusal(null);
          mutation.mutate(vars, {
            onSuccess: () => {
              notifications.show({ color: 'teal', message: doneMessage });
              onDone();
            },
            onError: (e) => setRefusal(refusedOf(e)),
          });
        }}
        data-testid={submitTestId}
      >
        {submitLabel}
      </Button>
      <Refusal error={refusal} />
    </Stack>
  );
}

function PartialClose({
  position,
  instrument,
  onDone,
}: {
  position: ContractPositionData;
  instrument: ContractInstrumentData | undefined;
  onDone: () => void;
}) {
  const { t } = useTranslation('contract');
  const [lots, setLots] = useState('');
  const close = useCloseContract();
  const step = instrument?.lot_step ?? '0.01';
  const broken = closeLotsBreak(lots, position.lots, step);
  return (
    <ActionForm
      mutation={close}
      vars={{ position_id: position.position_id, lots: lots.trim() }}
      doneMessage={t('positions.partialDone', { lots: lots.trim() })}
      onDone={onDone}
      disabled={lots.trim() === '' || broken !== null}
      color="red"
      submitLabel={t('positions.partialSubmit')}
      submitTestId="partial-submit"
    >
      <Text size="sm" data-testid="partial-open-lots">
        {t('positions.partialMax', { lots: position.lots })}
      </Text>
      <TextInput
        label={t('positions.partialLots')}
        value={lots}
        inputMode="decimal"
        autoComplete="off"
        onChange={(e) => setLots(e.currentTarget.value)}
        error={broken ? t(`positions.closeHint.${broken}`, { step, lots: position.lots }) : undefined}
        data-testid="partial-lots"
      />
    </ActionForm>
  );
}

function TpSl({ position, onDone }: { position: ContractPositionData; onDone: () => void }) {
  const { t } = useTranslation('contract');
  const [tp, setTp] = useState(position.tp_price ?? '');
  const [sl, setSl] = useState(position.sl_price ?? '');
  const save = useSetTpSl();
  const reference = position.current_price;
  const breaks = tpSlBreaks({ side: position.side, tp, sl, reference });
  const hint = (field: 'tp' | 'sl') => {
    const b = breaks.find((x) => x.startsWith(field));
    if (!b) return undefined;
    if (b === 'tpInvalid' || b === 'slInvalid') return t(`form.hint.${b}`);
    const key = `${field}Side${position.side === 'buy' ? 'Buy' : 'Sell'}` as const;
    return t(`form.hint.${key}`, { price: reference ?? '' });
  };
  return (
    <ActionForm
      mutation={save}
      vars={{ position_id: position.position_id, tp_price: tp.trim(), sl_price: sl.trim() }}
      doneMessage={t('positions.tpSlSaved')}
      onDone={onDone}
      disabled={breaks.some((b) => b.endsWith('Invalid'))}
      submitLabel={t('positions.tpSlSave')}
      submitTestId="tpsl-submit"
    >
      <Text size="xs" c="dimmed">
        {position.side === 'buy' ? t('form.sideRuleBuy') : t('form.sideRuleSell')} {t('positions.tpSlClear')}
      </Text>
      <TextInput
        label={t('form.tp')}
        value={tp}
        inputMode="decimal"
        autoComplete="off"
        onChange={(e) => setTp(e.currentTarget.value)}
        error={hint('tp')}
        data-testid="edit-tp"
      />
      <TextInput
        label={t('form.sl')}
        value={sl}
        inputMode="decimal"
        autoComplete="off"
        onChange={(e) => setSl(e.currentTarget.value)}
        error={hint('sl')}
        data-testid="edit-sl"
      />
    </ActionForm>
  );
}

function AddMargin({
  position,
  instrument,
  onDone,
}: {
  position: ContractPositionData;
  instrument: ContractInstrumentData | undefined;
  onDone: () => void;
}) {
  const { t } = useTranslation('contract');
  const [amount, setAmount] = useState('');
  const add = useAddMargin();
  const max = instrument?.margin_topup_max ?? null;
  const broken = amountBreak(amount, max ?? '', 2);
  return (
    <ActionForm
      mutation={add}
      vars={{ position_id: position.position_id, amount: amount.trim() }}
      doneMessage={t('positions.marginDone', { amount: amount.trim() })}
      onDone={onDone}
      disabled={amount.trim() === '' || broken !== null}
      submitLabel={t('positions.marginSubmit')}
      submitTestId="margin-submit"
    >
      <Group justify="space-between">
        <Text size="sm" data-testid="margin-now">
          {t('positions.marginNow', { margin: position.margin })}
        </Text>
        {max ? (
          <Text size="sm" c="dimmed" data-testid="margin-max" data-max={max}>
            {t('positions.marginMax', { max })}
          </Text>
        ) : null}
      </Group>
      <TextInput
        label={t('positions.marginAmount')}
        value={amount}
        inputMode="decimal"
        autoComplete="off"
        onChange={(e) => setAmount(e.currentTarget.value)}
        error={broken ? t(`positions.marginHint.${broken}`, { max: max ?? '' }) : undefined}
        data-testid="margin-amount"
      />
    </ActionForm>
  );
}

/** The sheet for one position action: partial close, TP/SL, or margin top-up. */
export function PositionActionSheet({
  target,
  instruments,
  onClose,
}: {
  target: { position: ContractPositionData; action: PositionAction } | null;
  instruments: ReadonlyMap<string, ContractInstrumentData>;
  onClose: () => void;
}) {
  const { t } = useTranslation('contract');
  const position = target?.position;
  const instrument = position ? instruments.get(position.symbol) : undefined;
  const title =
    target?.action === 'partial'
      ? t('positions.partialTitle')
      : target?.action === 'tpsl'
        ? t('positions.tpSlTitle')
        : t('positions.marginTitle');
  return (
    <Sheet
      opened={target !== null}
      onClose={onClose}
      title={
        <Text fw={600}>
          {title}
          {position ? (
            <Text span translate="no" c="dimmed" ml={6}>
              {position.symbol}
            </Text>
          ) : null}
        </Text>
      }
      closeLabel={t('positions.closeDialog')}
      data-testid={`sheet-${target?.action ?? 'none'}`}
    >
      {position && target?.action === 'partial' ? (
        <PartialClose
          key={position.position_id}
          position={position}
          instrument={instrument}
          onDone={onClose}
        />
      ) : null}
      {position && target?.action === 'tpsl' ? (
        <TpSl key={position.position_id} position={position} onDone={onClose} />
      ) : null}
      {position && target?.action === 'margin' ? (
        <AddMargin key={position.position_id} position={position} instrument={instrument} onDone={onClose} />
      ) : null}
    </Sheet>
  );
}
