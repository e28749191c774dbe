import { ActionIcon, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MoonIcon, SunIcon } from './icons.tsx';

/** Light ⇄ dark; Mantine remembers the choice (localStorage, read again before first paint). */
export function ThemeToggle() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const label = computed === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        onClick={() => setColorScheme(computed === 'dark' ? 'light' : 'dark')}
        aria-label={label}
        data-testid="theme-toggle"
        data-scheme={computed}
      >
        {computed === 'dark' ? <SunIcon /> : <MoonIcon />}
      </ActionIcon>
    </Tooltip>
  );
}
