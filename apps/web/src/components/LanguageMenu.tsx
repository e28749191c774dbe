import { LANGS, type Lang, LOCALE_OF } from '@bourse/protocol';
import { Sheet } from '@bourse/ui';
import { ActionIcon, Box, Button, Menu, NavLink, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useChangeLanguage } from '../api/setLanguage.ts';
import { useLang } from '../lib/i18n.ts';
import { ChevronDownIcon, GlobeIcon } from './icons.tsx';

/** Each language is named in itself, the same in every catalog. */
function useLangName(): (lang: Lang) => string {
  const { t } = useTranslation();
  return (lang) => t(`lang.${lang}`);
}

/** The header's language menu: a dropdown on desktop, a bottom sheet on phones. */
export function LanguageMenu({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const nameOf = useLangName();
  const change = useChangeLanguage();
  const [opened, { open, close }] = useDisclosure(false);
  const label = t('lang.current', { name: nameOf(lang) });

  if (compact) {
    return (
      <>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          onClick={open}
          aria-label={label}
          data-testid="lang-menu"
          data-lang={lang}
        >
          <GlobeIcon />
        </ActionIcon>
        <Sheet opened={opened} onClose={close} title={t('lang.label')} closeLabel={t('ui.close')}>
          <Stack gap={4} role="listbox" aria-label={t('lang.label')}>
            {LANGS.map((option) => (
              <NavLink
                key={option}
                component="button"
                role="option"
                aria-selected={option === lang}
                active={option === lang}
                label={nameOf(option)}
                lang={LOCALE_OF[option]}
                onClick={() => {
                  change(option);
                  close();
                }}
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
                data-testid={`lang-option-${option}`}
              />
            ))}
          </Stack>
        </Sheet>
      </>
    );
  }

  return (
    <Menu position="bottom-end" width={180} shadow="md">
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          px="xs"
          leftSection={<GlobeIcon size={18} />}
          rightSection={<ChevronDownIcon size={14} />}
          aria-label={label}
          data-testid="lang-menu"
          data-lang={lang}
        >
          {/* The name only where the header has room (from 75em); the globe always. */}
          <Box component="span" visibleFrom="lg">
            {nameOf(lang)}
          </Box>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('lang.label')}</Menu.Label>
        {LANGS.map((option) => (
          <Menu.Item
            key={option}
            onClick={() => change(option)}
            fw={option === lang ? 700 : 400}
            aria-current={option === lang ? 'true' : undefined}
            lang={LOCALE_OF[option]}
            data-testid={`lang-option-${option}`}
          >
            {nameOf(option)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
