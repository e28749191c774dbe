import type { AdminC2cOrderData, C2cOutcome } from '@bourse/protocol';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { useDecide } from './api.ts';
import { DECIDE_PERMISSION, NoPermission, partiesOf, REASON_MIN, useC2cStaff } from './parts.tsx';

/** What an outcome does to the order's escrow, in the staff member's language, before they confirm. */
function useConsequence(): (o: AdminC2cOrderData, outcome: C2cOutcome) => string {
  const { t } = useTranslation('adminC2c');
  const amountText = useAmountText();
  return (o, outcome) => {
    const p = partiesOf(o);
    const params = {
      amount: amountText(o.amount, o.coin),
      fiat: amountText(o.fiat_amount, o.fiat),
      buyer: p.buyerUid,
      seller: p.sellerUid,
    };
    return t(outcome === 'release' ? 'decide.releaseText' : 'decide.returnText', params);
  };
}

/** The first decision of a four-eyes order, waiting for a different staff member. */
function Pending({ order: o, mine }: { order: AdminC2cOrderData; mine: boolean }) {
  const { t } = useTranslation('adminC2c');
  const lang = useLang();
  const f = o.first_decision;
  if (!f || !o.awaiting_second) return null;
  return (
    <Alert color="yellow" variant="light" data-testid="c2c-decision-pending" data-outcome={f.outcome}>
      <Text size="sm">
        {t('decide.pending', {
          who: f.by,
          outcome: t(`outcome.${f.outcome}`),
          time: formatTime(f.at, lang),
          reason: f.reason,
        })}
      </Text>
      {mine ? (
        <Text size="sm" fw={600} data-testid="c2c-decision-mine">
          {t('decide.mine')}
        </Text>
      ) : null}
    </Alert>
  );
}

/**
 * The dispute decision: release the escrow to the buyer or return it to the seller, with a written
 * reason. Above the four-eyes threshold the first call only records it (shown as pending) and a
 * different staff member confirms the same outcome; the server's refusals (`C2C_DECIDE_SELF`,
 * `C2C_DECISION_DIFFERS`, `C2C_ORDER_STATE`) stay in the dialog.
 */
export function DecisionPanel({ order: o }: { order: AdminC2cOrderData }) {
  const { t } = useTranslation('adminC2c');
  const { staffId, canDecide } = useC2cStaff();
  const decide = useDecide();
  const consequence = useConsequence();
  const [outcome, setOutcome] = useState<C2cOutcome | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const first = o.awaiting_second ? o.first_decision : null;
  const mine = first !== null && first.by === staffId;
  const label = (x: C2cOutcome) =>
    first && first.outcome === x ? t(`decide.confirm.${x}`) : t(`decide.action.${x}`);
  return (
    <Stack gap="xs" data-testid="c2c-decision" data-state={o.state}>
      <Pending order={o} mine={mine} />
      <DoneNote onClose={() => setNote(null)} data-testid="c2c-decision-note">
        {note}
      </DoneNote>
      {o.state !== 'disputed' ? (
        <Text size="sm" c="dimmed" data-testid="c2c-decision-closed">
          {t('decide.closed', { state: t(`state.${o.state}`) })}
        </Text>
      ) : canDecide ? (
        <Group>
          {(['release', 'return'] as const).map((x) => (
            <Button
              key={x}
              color={x === 'release' ? 'teal' : 'orange'}
              variant={first && first.outcome !== x ? 'light' : 'filled'}
              onClick={() => setOutcome(x)}
              data-testid={`c2c-decide-${x}`}
            >
              {label(x)}
            </Button>
          ))}
        </Group>
      ) : (
        <NoPermission permission={DECIDE_PERMISSION} />
      )}
      <ReasonDialog
        opened={outcome !== null}
        size="lg"
        danger
        title={outcome ? t('decide.title', { action: label(outcome), id: o.order_id }) : ''}
        confirmLabel={outcome ? label(outcome) : ''}
        onClose={() => setOutcome(null)}
        onSubmit={async (reason) => {
          if (!outcome) return;
          if (reason.trim().length < REASON_MIN)
            throw new Error(t('common.reasonShort', { min: REASON_MIN }));
          const done = await decide.mutateAsync({ id: o.order_id, outcome, reason: reason.trim() });
          setNote(
            done.state === 'disputed' && done.awaiting_second
              ? t('decide.recorded', { outcome: t(`outcome.${outcome}`) })
              : t('decide.done', { id: done.order_id, state: t(`state.${done.state}`) }),
          );
        }}
      >
        {outcome ? (
          <Stack gap="xs">
            <Alert color="red" variant="light" data-testid="c2c-decide-consequence" data-outcome={outcome}>
              <Text size="sm">{consequence(o, outcome)}</Text>
            </Alert>
            <Text size="sm" c="dimmed" data-testid="c2c-decide-four-eyes">
              {first
                ? t('decide.confirmNote', { who: first.by, outcome: t(`outcome.${first.outcome}`) })
                : t('decide.fourEyesNote')}
            </Text>
          </Stack>
        ) : null}
      </ReasonDialog>
    </Stack>
  );
}
