import type { catalogs } from '@bourse/i18n';

/**
 * The names the route table (routes.tsx) is written in, apart from the table itself so that a
 * screen the table loads (UnavailableScreen) can read its route's handle without importing the table.
 */
type WebCatalog = (typeof catalogs)['en']['web'];
export type RouteArea = keyof WebCatalog['area'];
export type RouteTitle = keyof WebCatalog['route'];

/** What every route carries to its screen and the layout (document title, unavailable page). */
export type RouteHandle = { title: RouteTitle };
