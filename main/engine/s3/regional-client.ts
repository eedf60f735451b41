// The SDK's client of each region a connection's buckets are in, behind one `send`.
//
// A command naming a bucket goes to the client of that bucket's region (bucket-regions.ts), made on
// first use and sharing the connection's sockets and credentials; one naming none (ListBuckets), and
// CreateBucket (the bucket is made where the connection is), to the connection's region. A refusal
// for the region teaches the bucket's region, and the error says to send it again (retry-loop.ts).
//
// Not the SDK's own followRegionRedirects: it follows a 301 (not a 400 AuthorizationHeaderMalformed),
// only on AWS, learns nothing for the next request, does not check the region it is given, and
// swaps the client's region while other requests are in flight on it.

import { CreateBucketCommand, DeleteObjectsCommand, HeadBucketCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { regionRefusalInside } from './bucket-regions.ts';
import type { BucketRegions } from './bucket-regions.ts';
import { regionRedirectOf } from '../queue/retry-policy.ts';

/** What `send` needs of a command: its input (for the bucket). */
interface AnyCommand {
  readonly input: object;
}

export class RegionalClient {
  private readonly regions: BucketRegions;
  private readonly make: (region: string) => S3Client;
  private readonly clients = new Map<string, S3Client>();

  /** `make`: a client for one region, with the connection's sockets, credentials and settings. */
  constructor(regions: BucketRegions, make: (region: string) => S3Client) {
    this.regions = regions;
    this.make = make;
  }

  /** `S3Client.send`, in the region of the command's bucket. */
  readonly send = (async (command: AnyCommand, options?: object) => {
    const bucket = (command.input as { Bucket?: unknown }).Bucket;
    if (typeof bucket !== 'string' || command instanceof CreateBucketCommand)
      return this.sendIn(this.regions.defaultRegion, command, options);
    const region = await this.regions.regionFor(bucket);
    let output: unknown;
    try {
      output = await this.sendIn(region, command, options);
    } catch (error) {
      await this.regions.afterFailure(
        bucket,
        region,
        error,
        command instanceof HeadObjectCommand || command instanceof HeadBucketCommand,
      );
      throw error;
    }
    // A DeleteObjects may be refused for its region key by key, inside a 200 (MinIO with a site region).
    const inside = command instanceof DeleteObjectsCommand ? regionRefusalInside(output) : undefined;
    if (inside) {
      await this.regions.afterFailure(bucket, region, inside, false);
      if (regionRedirectOf(inside) !== undefined) throw inside;
    }
    return output;
  }) as S3Client['send'];

  /** The client of one region (made now if it is the first request there). */
  clientFor(region: string): S3Client {
    let client = this.clients.get(region);
    if (client === undefined) {
      client = this.make(region);
      this.clients.set(region, client);
    }
    return client;
  }

  destroy(): void {
    for (const client of this.clients.values()) client.destroy();
    this.clients.clear();
  }

  private sendIn(region: string, command: AnyCommand, options: object | undefined): Promise<unknown> {
    const client = this.clientFor(region);
    return (client.send as (command: AnyCommand, options?: object) => Promise<unknown>)(command, options);
  }
}
