import { ActionIcon, Box, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBanners } from '../api/content.ts';

const ADVANCE_MS = 7_000;
const GRADIENTS = [
  'linear-gradient(120deg, var(--mantine-color-indigo-8), var(--mantine-color-cyan-6))',
  'linear-gradient(120deg, var(--mantine-color-teal-8), var(--mantine-color-lime-6))',
  'linear-gradient(120deg, var(--mantine-color-grape-8), var(--mantine-color-orange-5))',
];

/** Home banners from content: one at a time, advancing by itself; nothing at all when there are none. */
export function BannerCarousel() {
  const { t } = useTranslation('market');
  const banners = useBanners();
  const items = banners.data ?? [];
  const [index, setIndex] = useState(0);
  const count = items.length;
  useEffect(() => {
    if (count < 2) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), ADVANCE_MS);
    return () => clearInterval(timer);
  }, [count]);
  if (count === 0) return null;
  const current = items[index % count];
  if (!current) return null;

  return (
    <Box
      pos="relative"
      style={{
        borderRadius: 'var(--mantine-radius-lg)',
        overflow: 'hidden',
        background: current.image_url
          ? `center / cover no-repeat url(${JSON.stringify(current.image_url)})`
          : GRADIENTS[index % GRADIENTS.length],
        color: 'white',
      }}
      data-testid="banners"
      data-count={count}
    >
      <UnstyledButton
        component={Link}
        to={`/bannerDetail?id=${encodeURIComponent(current.id)}`}
        p={{ base: 'md', sm: 'xl' }}
        w="100%"
        style={{ display: 'block', color: 'white', minHeight: 132 }}
        data-testid="banner"
        data-id={current.id}
      >
        <Stack gap={6} maw={760}>
          <Title order={2} fz={{ base: 18, sm: 26 }}>
            {current.title}
          </Title>
          {current.summary ? <Text style={{ opacity: 0.92 }}>{current.summary}</Text> : null}
        </Stack>
      </UnstyledButton>
      {count > 1 ? (
        <Group gap={6} pos="absolute" bottom={10} right={14}>
          <ActionIcon
            variant="subtle"
            color="white"
            size="sm"
            aria-label={t('content.bannerPrev')}
            onClick={() => setIndex((i) => (i - 1 + count) % count)}
          >
            ‹
          </ActionIcon>
          {items.map((b, i) => (
            <UnstyledButton
              key={b.id}
              aria-label={t('content.bannerGo', { n: i + 1 })}
              onClick={() => setIndex(i)}
              w={8}
              h={8}
              style={{
                borderRadius: 4,
                background: i === index % count ? 'white' : 'rgba(255,255,255,0.45)',
              }}
            />
          ))}
          <ActionIcon
            variant="subtle"
            color="white"
            size="sm"
            aria-label={t('content.bannerNext')}
            onClick={() => setIndex((i) => (i + 1) % count)}
          >
            ›
          </ActionIcon>
        </Group>
      ) : null}
    </Box>
  );
}
