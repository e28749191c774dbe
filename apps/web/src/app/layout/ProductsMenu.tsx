import { Menu, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronDownIcon } from '../../components/icons.tsx';
import { PRODUCT_PATHS } from '../../config/app.ts';
import { ProductIcon, type ProductIconKey } from '../../features/home/components/ProductIcons.tsx';
import classes from './layout.module.css';

type ProductKey = keyof typeof PRODUCT_PATHS;

/** The menu's entries in the order of PRODUCT_PATHS; both ETF models share the portfolio picture. */
const PRODUCT_KEYS = Object.keys(PRODUCT_PATHS) as ProductKey[];

const ICON_OF: Record<ProductKey, ProductIconKey> = {
  custody: 'custody',
  vip: 'vip',
  etf_balanced: 'etf',
  etf_low_risk: 'etf',
  launchpad: 'launchpad',
  loans: 'loans',
  c2c: 'c2c',
};

/**
 * The desktop header's Products entry: a menu of the finance products, each with a line on what it
 * is. It opens on hover or click; from the keyboard Enter or Space opens it, the arrow keys move
 * between the products and Escape closes it. Styled as a header link, and marked like one while a
 * product's screen is open.
 */
export function ProductsMenu({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <Menu trigger="click-hover" position="bottom-start" offset={4} width={340} shadow="md" closeDelay={150}>
      <Menu.Target>
        <button
          type="button"
          className={`${classes.navLink} ${classes.navTrigger}`}
          data-active={active || undefined}
          aria-current={active ? 'true' : undefined}
          data-testid="nav-products"
        >
          {t('products.title')}
          <ChevronDownIcon size={14} />
        </button>
      </Menu.Target>
      <Menu.Dropdown data-testid="products-menu">
        {PRODUCT_KEYS.map((key) => (
          <Menu.Item
            key={key}
            component={Link}
            to={PRODUCT_PATHS[key]}
            leftSection={
              <ThemeIcon variant="light" size={36} radius="md">
                <ProductIcon product={ICON_OF[key]} />
              </ThemeIcon>
            }
            data-testid={`product-link-${key}`}
          >
            <Text size="sm" fw={600}>
              {t(`products.menu.${key}.name`)}
            </Text>
            <Text size="xs" c="dimmed">
              {t(`products.menu.${key}.description`)}
            </Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
