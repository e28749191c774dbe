import { Box, Button, Grid, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FlaskIcon, LanguageIcon, ShieldIcon } from '../../../components/icons.tsx';
import { NAV_PATHS } from '../../../config/app.ts';
import { useToken } from '../../../lib/session.ts';
import { HotPairs } from './HotPairs.tsx';
import { ProductsSection } from './ProductsSection.tsx';

/** A quiet rising chart beside the headline on wide screens; decoration only. */
function HeroChart() {
  return (
    <Box visibleFrom="md" style={{ flexShrink: 0 }}>
      <svg width="360" height="200" viewBox="0 0 360 200" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id="hero-area" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0" stopColor="#fff" stopOpacity="0.35" />
            <stop offset="1" stopColor="#fff" stopOpacity="0" />
          </linearGradient>
        </defs>
        <path
          d="M0 170 L40 150 L80 158 L120 120 L160 130 L200 92 L240 100 L280 60 L320 70 L360 24 L360 200 L0 200 Z"
          fill="url(#hero-area)"
        />
        <path
          d="M0 170 L40 150 L80 158 L120 120 L160 130 L200 92 L240 100 L280 60 L320 70 L360 24"
          fill="none"
          stroke="#fff"
          strokeWidth="3"
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      </svg>
    </Box>
  );
}

function Feature({ icon, title, body }: { icon: ReactNode; title: string; body: string }) {
  return (
    <Paper withBorder radius="lg" p="lg">
      <Group gap="md" align="flex-start" wrap="nowrap">
        <ThemeIcon variant="light" size={44} radius="md">
          {icon}
        </ThemeIcon>
        <Stack gap={4}>
          <Text fw={700}>{title}</Text>
          <Text size="sm" c="dimmed">
            {body}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * / and /index: a call to action, banners and news from content, the finance products, hot pairs
 * from the live feed, and what the platform offers. Banners and news belong to the content feature:
 * app/ passes them in.
 */
export function HomePage({ banners, news }: { banners: ReactNode; news: ReactNode }) {
  const { t } = useTranslation();
  const token = useToken();

  return (
    <Stack gap={40} py={{ base: 'md', sm: 40 }} data-testid="home-page">
      <Box
        p={{ base: 'lg', sm: 56 }}
        style={{
          borderRadius: 'var(--mantine-radius-lg)',
          background:
            'linear-gradient(135deg, var(--mantine-color-brand-9) 0%, var(--mantine-color-brand-6) 60%, var(--mantine-color-cyan-6) 100%)',
          color: 'var(--mantine-color-white)',
        }}
      >
        <Group justify="space-between" align="center" wrap="nowrap" gap="xl">
          <Stack gap="md" maw={720}>
            <Title order={1} fz={{ base: 28, sm: 44 }} lh={1.15}>
              {token ? t('home.welcomeBack') : t('home.heroTitle')}
            </Title>
            <Text fz={{ base: 'md', sm: 'lg' }} style={{ opacity: 0.92 }}>
              {token ? t('home.welcomeBody') : t('home.heroBody')}
            </Text>
            <Group gap="sm" mt="sm">
              {token ? (
                <>
                  <Button
                    component={Link}
                    to={NAV_PATHS.trade}
                    size="md"
                    color="white"
                    c="brand.8"
                    data-testid="home-cta-trade"
                  >
                    {t('home.ctaTrade')}
                  </Button>
                  <Button
                    component={Link}
                    to={NAV_PATHS.assets}
                    size="md"
                    variant="outline"
                    color="white"
                    data-testid="home-cta-assets"
                  >
                    {t('home.ctaAssets')}
                  </Button>
                </>
              ) : (
                <>
                  <Button
                    component={Link}
                    to="/register"
                    size="md"
                    color="white"
                    c="brand.8"
                    data-testid="home-cta-register"
                  >
                    {t('home.ctaRegister')}
                  </Button>
                  <Button
                    component={Link}
                    to="/login"
                    size="md"
                    variant="outline"
                    color="white"
                    data-testid="home-cta-demo"
                  >
                    {t('home.ctaDemo')}
                  </Button>
                </>
              )}
            </Group>
          </Stack>
          <HeroChart />
        </Group>
      </Box>

      {banners}

      <ProductsSection />

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <HotPairs />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>{news}</Grid.Col>
      </Grid>

      <Stack gap="md">
        <Title order={2} size="h3">
          {t('home.features.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          <Feature
            icon={<ShieldIcon />}
            title={t('home.features.secureTitle')}
            body={t('home.features.secureBody')}
          />
          <Feature
            icon={<FlaskIcon />}
            title={t('home.features.demoTitle')}
            body={t('home.features.demoBody')}
          />
          <Feature
            icon={<LanguageIcon />}
            title={t('home.features.langTitle')}
            body={t('home.features.langBody')}
          />
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}
