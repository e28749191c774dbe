import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { UnavailablePage } from '../../features/unavailable/components/UnavailablePage.tsx';
import type { RouteHandle } from '../routeTypes.ts';

/** Every route of the table that is not built yet: the shared page, titled after the route. */
export function UnavailableScreen() {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as RouteHandle | undefined;
  return <UnavailablePage title={handle ? t(`route.${handle.title}`) : t('app.name')} />;
}
