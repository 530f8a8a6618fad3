// The API contract: every /api endpoint by its method and path (see endpoint.ts). Each area keeps its entries
// beside its schemas; this is their union, from which the server registers its routes and the browser types
// its calls.
import type { Contract } from './endpoint';
import { eventEndpoints } from './events';
import { appEndpoints } from './common';
import { authEndpoints, invitationEndpoints, userEndpoints } from './accounts';
import { scanEndpoints } from './scans';
import { strategyEndpoints } from './strategy';
import { areaEndpoints } from './areas';
import { teamEndpoints } from './dashboard';
import { auditEndpoints, exportEndpoints, settingsEndpoints } from './admin';
import { websiteCheckEndpoints } from './websites';
import { advertiserEndpoints, blocklistEndpoints, callLogEndpoints, savedEndpoints } from './lists';
import { followUpEndpoints } from './follow-ups';
import { routeEndpoints } from './route';
import { pipelineEndpoints } from './pipeline';
import { photoEndpoints } from './photos';
import { territoryEndpoints } from './territories';
import { billingEndpoints } from './billing';

export const contract = {
  ...appEndpoints,
  ...authEndpoints,
  ...userEndpoints,
  ...invitationEndpoints,
  ...auditEndpoints,
  ...settingsEndpoints,
  ...exportEndpoints,
  ...savedEndpoints,
  ...callLogEndpoints,
  ...advertiserEndpoints,
  ...websiteCheckEndpoints,
  ...scanEndpoints,
  ...strategyEndpoints,
  ...areaEndpoints,
  ...teamEndpoints,
  ...blocklistEndpoints,
  ...followUpEndpoints,
  ...eventEndpoints,
  ...routeEndpoints,
  ...pipelineEndpoints,
  ...territoryEndpoints,
  ...photoEndpoints,
  ...billingEndpoints,
} satisfies Contract;

export type ApiContract = typeof contract;
export type ApiKey = keyof ApiContract;
