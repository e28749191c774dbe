import { type AdminLaunchpadProjectData, LAUNCHPAD_LIMITS } from '@bourse/protocol';
import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { useProjectAction } from './api.ts';
import { Coins, Facts } from './parts.tsx';
import { actionsOf, type ProjectAction, subscriptionCost } from './projectForm.ts';

export type Acting = { project: AdminLaunchpadProjectData; action: ProjectAction };

/** The sentence naming what the action does to money and to the rules, in the staff member's language. */
function useConsequence(): (acting: Acting) => string {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const amountText = useAmountText();
  return ({ project: p, action }) => {
    const name = p.names[lang];
    if (action === 'announce') {
      const capCost = subscriptionCost({
        quantity: p.per_customer_cap,
        coinScale: p.coin_scale,
        price: p.price,
        feeRate: p.fee_rate,
        marginRatio: p.margin_ratio,
      });
      if (p.mode === 'pro_rata') {
        // Pro rata: a customer may ask for up to the supply; the cap bounds the allocation only.
        const maxCost = subscriptionCost({
          quantity: p.supply,
          coinScale: p.coin_scale,
          price: p.price,
          feeRate: p.fee_rate,
          marginRatio: p.margin_ratio,
        });
        return t('actions.announceTextProRata', {
          coin: p.coin,
          name,
          opens: formatTime(p.opens_at, lang),
          cap: amountText(p.per_customer_cap),
          supply: amountText(p.supply),
          maxFrozen: amountText(maxCost?.frozen ?? null),
        });
      }
      return t('actions.announceText', {
        coin: p.coin,
        name,
        opens: formatTime(p.opens_at, lang),
        cap: amountText(p.per_customer_cap),
        capFrozen: amountText(capCost?.frozen ?? null),
      });
    }
    if (action === 'withdraw')
      return t('actions.withdrawText', {
        coin: p.coin,
        name,
        subscribed: amountText(p.subscribed),
        count: p.refund_hours,
      });
    return t('actions.payIssuerText', {
      amount: amountText(p.escrow),
      issuer: p.issuer,
      fees: amountText(p.fees),
    });
  };
}

/** Announce, withdraw or pay the issuer: a confirmation naming the project, coin and money, and a reason. */
export function ProjectActionDialog({
  acting,
  onClose,
  onDone,
}: {
  acting: Acting | null;
  onClose: () => void;
  onDone: (project: AdminLaunchpadProjectData) => void;
}) {
  const { t } = useTranslation('adminLaunchpad');
  const lang = useLang();
  const act = useProjectAction();
  const consequence = useConsequence();
  const p = acting?.project;
  return (
    <ReasonDialog
      opened={acting !== null}
      size="lg"
      title={
        acting && p
          ? t('actions.title', { action: t(`action.${acting.action}`), coin: p.coin, name: p.names[lang] })
          : ''
      }
      text={acting ? consequence(acting) : undefined}
      confirmLabel={acting ? t(`action.${acting.action}`) : ''}
      danger={acting?.action !== 'announce'}
      onClose={onClose}
      onSubmit={async (reason) => {
        if (!acting) return;
        if (reason.trim().length < LAUNCHPAD_LIMITS.reasonMin)
          throw new Error(t('common.reasonShort', { min: LAUNCHPAD_LIMITS.reasonMin }));
        const project = await act.mutateAsync({
          id: acting.project.project_id,
          action: acting.action,
          reason: reason.trim(),
        });
        onDone(project);
      }}
    >
      {p ? (
        <Facts
          testId="launchpad-action-summary"
          rows={[
            [
              t('detail.project'),
              <Text key="p" size="sm">{`${p.coin} · ${p.names[lang]} (${p.project_id})`}</Text>,
            ],
            [t('detail.issuer'), p.issuer],
            [t('detail.subscribed'), <Coins key="s" value={p.subscribed} coin={p.coin} />],
            [t('detail.subscribers'), p.subscribers],
            [t('detail.escrow'), <Amount key="e" value={p.escrow} currency="USDT" suffix />],
          ]}
        />
      ) : null}
    </ReasonDialog>
  );
}

/** The actions a project allows now, as buttons (none without `launchpad.write`). */
export function ActionButtons({
  project,
  canWrite,
  onAction,
}: {
  project: AdminLaunchpadProjectData;
  canWrite: boolean;
  onAction: (action: ProjectAction) => void;
}) {
  const { t } = useTranslation('adminLaunchpad');
  if (!canWrite) return null;
  return (
    <Group gap={4} wrap="nowrap">
      {actionsOf(project, Date.now()).map((action) => (
        <Button
          key={action}
          size="compact-xs"
          variant={action === 'announce' ? 'default' : 'light'}
          color={action === 'announce' ? undefined : 'red'}
          onClick={() => onAction(action)}
          data-testid={`launchpad-action-${action}`}
        >
          {t(`action.${action}`)}
        </Button>
      ))}
    </Group>
  );
}
