import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../app-route';

/**
 * The owner's screens under /settings: the set-up checklist and the index of settings, the
 * organization's profile, members and roles, the reference data (one screen for every family),
 * e-invoicing, integration keys, the settings history. Each loads on first visit.
 */

const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  component: lazyRouteComponent(() => import('./checklist'), 'SettingsLanding'),
});

const profileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/organization',
  component: lazyRouteComponent(() => import('./profile'), 'ProfilePage'),
});

const membersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/members',
  component: lazyRouteComponent(() => import('./members'), 'MembersPage'),
});

const rolesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/roles',
  component: lazyRouteComponent(() => import('./roles'), 'RolesPage'),
});

const historyRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/history',
  component: lazyRouteComponent(() => import('./history'), 'HistoryPage'),
});

const einvoicingRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/einvoicing',
  component: lazyRouteComponent(() => import('./einvoicing'), 'EinvoicingPage'),
});

const keysRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/keys',
  component: lazyRouteComponent(() => import('./keys'), 'KeysPage'),
});

const collectionsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/collections',
  component: lazyRouteComponent(() => import('./collections'), 'CollectionsPage'),
});

const ReferenceRoute = lazyRouteComponent(() => import('./reference/reference-page'), 'ReferencePage');

const referenceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/reference/$family',
  component: function Reference() {
    const { family } = referenceRoute.useParams();
    return <ReferenceRoute familyKey={family} />;
  },
});

export const ownerRoutes = [settingsRoute, profileRoute, membersRoute, rolesRoute, historyRoute, einvoicingRoute, keysRoute, collectionsRoute, referenceRoute] as const;
