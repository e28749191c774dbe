import type { FundEligibilityData } from '@bourse/protocol';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** A refusal's params with the codes a reader should not see (ratings, tiers, features) worded. */
export function useRefusalText() {
  const { t } = useTranslation('common');
  return (refusal: { code: string; params: Record<string, string | number> }) => {
    const shown: Record<string, string | number> = { ...refusal.params };
    for (const name of ['rating', 'required'] as const) {
      const code = refusal.params[name];
      if (typeof code === 'string') shown[name] = t(`label.rating.${code}` as never);
    }
    for (const name of ['tier', 'feature'] as const) {
      const code = refusal.params[name];
      if (typeof code === 'string') shown[name] = t(`label.${name}.${code}` as never);
    }
    return t(`reason.${refusal.code}` as never, shown) as string;
  };
}

const RATING_CODES = new Set(['FUNDS_RATING_REQUIRED', 'RATING_CAP_EXCEEDED', 'RATING_PRODUCT_BLOCKED']);

/** Shown before the form: why this customer cannot buy now, and where to go to change that. */
export function EligibilityNotice({ eligibility }: { eligibility: FundEligibilityData }) {
  const { t } = useTranslation('funds');
  const text = useRefusalText();
  const refusal = eligibility.refusal;
  if (eligibility.eligible || !refusal) return null;
  const rating = RATING_CODES.has(refusal.code);
  const verify = refusal.code.startsWith('VERIFICATION_');
  return (
    <Alert
      color="orange"
      title={t('buy.notEligible')}
      data-testid="etf-not-eligible"
      data-reason={refusal.code}
    >
      <Text size="sm">{text(refusal)}</Text>
      {rating || verify ? (
        <Group mt="sm">
          <Button
            component={Link}
            to={rating ? '/questionnaire' : '/sfyz'}
            size="xs"
            variant="light"
            data-testid="etf-eligibility-action"
          >
            {rating ? t('buy.questionnaire') : t('buy.verify')}
          </Button>
        </Group>
      ) : null}
    </Alert>
  );
}
