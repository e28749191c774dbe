import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The Bourse mark (a rising bar chart in a rounded square) and the word mark. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="var(--mantine-color-brand-6)" />
      <rect x="7" y="17" width="4" height="8" rx="1" fill="#fff" />
      <rect x="14" y="12" width="4" height="13" rx="1" fill="#fff" />
      <rect x="21" y="7" width="4" height="18" rx="1" fill="#fff" />
    </svg>
  );
}

export function Logo({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap={8} wrap="nowrap">
      <LogoMark size={compact ? 24 : 28} />
      <Text fw={800} size={compact ? 'lg' : 'xl'} lh={1} style={{ letterSpacing: '-0.02em' }}>
        {t('app.name')}
      </Text>
    </Group>
  );
}
