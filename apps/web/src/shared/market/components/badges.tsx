import type { PriceState } from '@bourse/protocol';
import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** SIMULATED: the price comes from the built-in simulated feed (architecture rule 2: the UI says so). */
export function SimBadge({ size = 'sm' }: { size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useTranslation('market');
  return (
    <Tooltip label={t('simulatedHint')} multiline w={260} withArrow>
      <Badge color="orange" variant="light" size={size} data-testid="sim-badge">
        {t('simulated')}
      </Badge>
    </Tooltip>
  );
}

/** Shown for every state but `live`: stale (feed silent), closed (outside hours), halted. */
export function PriceStateBadge({ state, size = 'xs' }: { state: PriceState; size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useTranslation('market');
  if (state === 'live') return null;
  const color = state === 'stale' ? 'yellow' : state === 'halted' ? 'red' : 'gray';
  const badge = (
    <Badge
      color={color}
      variant={state === 'stale' ? 'filled' : 'light'}
      size={size}
      data-testid={`state-${state}`}
    >
      {t(`state.${state}`)}
    </Badge>
  );
  return state === 'stale' ? (
    <Tooltip label={t('staleHint')} multiline w={260} withArrow>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
