// What a connection takes from its settings, the environment and ~/.aws, checked before anything is
// dialled or signed: a named profile that exists, a region that is a region, an address a guarded
// host may dial.
//
// A profile that is not found must not quietly become the SDK's default chain: that chain ends in
// the container's and the instance's credentials, which would sign requests to an endpoint a page
// names. A region goes into host names (s3.<region>.amazonaws.com) and every signature's scope:
// "x@127.0.0.1:19096/#" made a URL whose host was 127.0.0.1. And an endpoint that is an IP address
// is dialled without any name lookup, so the guarded lookup never sees it: it is judged here.

import { loadSharedConfigFiles } from '@smithy/core/config';
import { isRegion, REGION_RULE } from '../../../src/region.ts';
import type { ConnectionConfig } from '../../../src/connection.ts';
import { BargeError } from '../errors.ts';
import type { AddressPolicy } from './guarded-lookup.ts';
import { refusedAddress } from './guarded-lookup.ts';

const DEFAULT_REGION = 'us-east-1';

export interface ConnectionSources {
  /** The region requests are signed for and AWS's endpoints are named after. */
  readonly region: string;
}

/**
 * The connection's region, once its profile is known to exist and every source of its region is
 * known to hold one; throws (NoSuchProfile, InvalidRegion) naming where the bad value came from.
 */
export async function checkedConnectionSources(
  config: ConnectionConfig,
  env: NodeJS.ProcessEnv,
): Promise<ConnectionSources> {
  const files = await loadSharedConfigFiles({ ignoreCache: true });
  const named = config.profile ?? (env.AWS_PROFILE || undefined);
  const exists = (name: string) => Object.hasOwn(files.configFile, name) || Object.hasOwn(files.credentialsFile, name);
  if (named !== undefined && !exists(named)) {
    throw new BargeError(
      'NoSuchProfile',
      config.profile === undefined
        ? `The config profile (${named}) could not be found: AWS_PROFILE names it, but there is no such ` +
            `profile in ${profileFiles('or')}. Set AWS_PROFILE to a profile there, or unset it.`
        : `No profile ${named} in ${profileFiles('or')}: check its name (a profile is a [profile ${named}] ` +
            `section of the config file, or a [${named}] section of the credentials file).`,
    );
  }
  const profile = named ?? 'default';
  const fromProfile = files.configFile[profile]?.region ?? files.credentialsFile[profile]?.region;
  const [region, from] =
    config.region !== undefined
      ? [config.region, "The connection's region"]
      : env.AWS_REGION
        ? [env.AWS_REGION, 'AWS_REGION']
        : env.AWS_DEFAULT_REGION
          ? [env.AWS_DEFAULT_REGION, 'AWS_DEFAULT_REGION']
          : fromProfile
            ? [fromProfile, `The region of the profile ${profile} (in ${profileFiles('or')})`]
            : [DEFAULT_REGION, 'The default region'];
  if (!isRegion(region))
    throw new BargeError('InvalidRegion', `${from} is not a region ("${region.slice(0, 80)}"): ${REGION_RULE}.`);
  return { region };
}

/** Throws EndpointRefused when the endpoint's host is an IP address `refuse` refuses (no lookup will see it). */
export function checkEndpointAddress(endpoint: string | undefined, refuse: AddressPolicy | undefined): void {
  if (endpoint === undefined || refuse === undefined) return;
  const host = new URL(endpoint).hostname;
  const refused = refusedAddress(host, refuse);
  if (refused) throw refused;
}

/** Where profiles are read from (the SDK finds the files by this process's environment). */
function profileFiles(conjunction: 'or' | 'and'): string {
  return (
    `${process.env.AWS_CONFIG_FILE || '~/.aws/config'} ${conjunction} ` +
    `${process.env.AWS_SHARED_CREDENTIALS_FILE || '~/.aws/credentials'}`
  );
}
