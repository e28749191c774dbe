import { Box, Flex, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ETF_PATH, PRODUCT_PATHS } from '../../../config/app.ts';
import { ProductIcon, type ProductIconKey } from './ProductIcons.tsx';
import classes from './ProductsSection.module.css';

/** One tile a product; the ETF tile opens the portfolios' screen, where both models are one choice apart. */
const TILES: ReadonlyArray<{ key: ProductIconKey; to: string }> = [
  { key: 'custody', to: PRODUCT_PATHS.custody },
  { key: 'vip', to: PRODUCT_PATHS.vip },
  { key: 'etf', to: ETF_PATH },
  { key: 'launchpad', to: PRODUCT_PATHS.launchpad },
  { key: 'loans', to: PRODUCT_PATHS.loans },
  { key: 'c2c', to: PRODUCT_PATHS.c2c },
];

/**
 * The home page's way to the finance products: six tiles (three a row on a phone), icon and name on a phone (where
 * the tab bar has no room for them), with a line on each from the tablet width up.
 */
export function ProductsSection() {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Box component="section" aria-labelledby={titleId} data-testid="home-products">
      <Title order={2} size="h3" mb="md" id={titleId}>
        {t('products.title')}
      </Title>
      <SimpleGrid cols={{ base: 3, sm: 3, lg: 6 }} spacing={{ base: 'xs', sm: 'lg' }}>
        {TILES.map(({ key, to }) => (
          <Paper
            key={key}
            component={Link}
            to={to}
            withBorder
            radius="lg"
            p={{ base: 'xs', sm: 'lg' }}
            className={classes.tile}
            data-testid={`product-link-${key}`}
          >
            <Flex
              direction={{ base: 'column', sm: 'row' }}
              align={{ base: 'center', sm: 'flex-start' }}
              gap={{ base: 6, sm: 'md' }}
            >
              <ThemeIcon variant="light" size={44} radius="md" style={{ flexShrink: 0 }}>
                <ProductIcon product={key} size={24} />
              </ThemeIcon>
              <Stack gap={4} miw={0}>
                <Text fw={700} fz={{ base: 'xs', sm: 'md' }} ta={{ base: 'center', sm: 'start' }} lh={1.3}>
                  {t(`products.tiles.${key}.name`)}
                </Text>
                <Text size="sm" c="dimmed" visibleFrom="sm">
                  {t(`products.tiles.${key}.description`)}
                </Text>
              </Stack>
            </Flex>
          </Paper>
        ))}
      </SimpleGrid>
    </Box>
  );
}
