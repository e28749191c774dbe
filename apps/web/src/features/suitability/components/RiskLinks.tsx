import { NavLink, Paper, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronRightIcon, ShieldIcon } from '../../../components/icons.tsx';
import { useRiskRating } from '../api.ts';
import { RatingBadge } from './CapLines.tsx';

/** The settings screen's risk-assessment block: links to /fengxian (with the current rating) and /questionnaire. */
export function RiskLinks() {
  const { t } = useTranslation('suitability');
  const rating = useRiskRating();
  return (
    <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'sm' }} data-testid="risk-links">
      <Title order={2} size="h4" px="sm" pt="xs" pb="xs">
        {t('link.title')}
      </Title>
      <NavLink
        component={Link}
        to="/fengxian"
        label={t('link.fengxian')}
        description={t('link.fengxianHint')}
        leftSection={<ShieldIcon />}
        rightSection={
          rating.data ? <RatingBadge rating={rating.data.rating} size="sm" /> : <ChevronRightIcon size={16} />
        }
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
        data-testid="settings-fengxian"
      />
      <NavLink
        component={Link}
        to="/questionnaire"
        label={t('link.questionnaire')}
        description={t('link.questionnaireHint')}
        rightSection={<ChevronRightIcon size={16} />}
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
        data-testid="settings-questionnaire"
      />
    </Paper>
  );
}
