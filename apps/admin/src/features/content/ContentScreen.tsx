import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ArticlesTab } from './ArticlesTab.tsx';
import { CategoriesTab } from './CategoriesTab.tsx';

/** /admin/content: articles of every kind and the help categories (content.write). */
export default function ContentScreen() {
  const { t } = useTranslation('adminContent');
  return (
    <Stack data-testid="content-screen">
      <Title order={2}>{t('title')}</Title>
      <Text size="sm" c="dimmed" maw={900}>
        {t('lead')}
      </Text>
      <Tabs defaultValue="articles" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="articles" data-testid="content-tab-articles">
            {t('tabs.articles')}
          </Tabs.Tab>
          <Tabs.Tab value="categories" data-testid="content-tab-categories">
            {t('tabs.categories')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="articles" pt="md">
          <ArticlesTab />
        </Tabs.Panel>
        <Tabs.Panel value="categories" pt="md">
          <CategoriesTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
