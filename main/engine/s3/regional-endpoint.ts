// Where AWS answers for a region: s3.<region>.amazonaws.com, or .amazonaws.com.cn in China.
//
// A custom endpoint is the same host for every region (the region is only the signature's scope);
// AWS has one endpoint per region, and a request for a bucket sent to another region's endpoint is
// refused (301 PermanentRedirect). The region must be a region (src/region.ts): it becomes a host.

import { isRegion, REGION_RULE } from '../../../src/region.ts';

/** The base URL of AWS's S3 in `region`. */
export function awsRegionalEndpoint(region: string): URL {
  if (!isRegion(region))
    throw Object.assign(new Error(`"${region}" is not a region: ${REGION_RULE}.`), { name: 'InvalidRegion' });
  const suffix = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return new URL(`https://s3.${region}.${suffix}`);
}

/** The base URL of a request in `region`: the custom endpoint as it is, or AWS's regional one. */
export function endpointFor(endpoint: string | undefined, region: string): URL {
  return endpoint === undefined ? awsRegionalEndpoint(region) : new URL(endpoint);
}
