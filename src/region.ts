// A region is a region: one DNS label, as AWS's SDKs check it (isValidHostLabel).
//
// A region goes into host names (s3.<region>.amazonaws.com) and into every signature's scope, so an
// unchecked one can point a request anywhere: "x@127.0.0.1:19096/#" made a URL whose host was
// 127.0.0.1. One label of letters, digits and inner hyphens admits every store's names ("us-east-1",
// "auto" for R2, "fsn1", "default" for Ceph) and nothing that can carry a host, a port or a path.

const REGION = /^(?!-)[a-zA-Z0-9-]{1,63}(?<!-)$/;

export function isRegion(text: string): boolean {
  return REGION.test(text);
}

export const REGION_RULE = 'a region is one name of letters, digits and hyphens (like us-east-1 or auto)';
