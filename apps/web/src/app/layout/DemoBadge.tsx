import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useInfo } from '../../api/info.ts';
import { formatDateTime, toMs } from '../../lib/format.ts';
import { useLang } from '../../lib/i18n.ts';

/** "DEMO" in the header for demo customers, with the expiry (in the tooltip, and spelled out for screen readers). */
export function DemoBadge() {
  const { t } = useTranslation();
  const lang = useLang();
  const { data } = useInfo();
  if (data?.is_demo !== 1) return null;
  const until = data.demo_expires_at
    ? t('account.demoUntil', { time: formatDateTime(toMs(data.demo_expires_at), lang) })
    : t('account.demo');
  return (
    <Tooltip label={until} withArrow>
      <Badge
        color="orange"
        variant="filled"
        aria-label={until}
        data-testid="demo-badge"
        style={{ cursor: 'default', flexShrink: 0, overflow: 'visible' }}
      >
        {t('account.demo')}
      </Badge>
    </Tooltip>
  );
}
