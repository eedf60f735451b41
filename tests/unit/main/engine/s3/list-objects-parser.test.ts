import { describe, expect, it } from 'vitest';
import { parseListObjectsV2 } from '../../../../../main/engine/s3/s3-wire.ts';

const page = `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>a%2F</Prefix><KeyCount>3</KeyCount><MaxKeys>2</MaxKeys><Delimiter>%2F</Delimiter><IsTruncated>true</IsTruncated><EncodingType>url</EncodingType>
<Contents><Key>a%2Fwith+space%26amp.txt</Key><LastModified>2026-11-22T02:32:35.000Z</LastModified><ETag>&quot;c0f8754f597414d5cfab136ca38b6a23-2&quot;</ETag><Size>31457280</Size><StorageClass>STANDARD</StorageClass></Contents>
<Contents><Key>a%2Fb%3C%3E.txt</Key><LastModified>2026-11-22T02:32:36.000Z</LastModified><ETag>&#34;764efa883dda1e11db47671c4a3bbd9e&#34;</ETag><Size>0</Size><StorageClass>STANDARD</StorageClass></Contents>
<CommonPrefixes><Prefix>a%2Fsub%2F</Prefix></CommonPrefixes><NextContinuationToken>1ZmFrZS10b2tlbg==&amp;x</NextContinuationToken></ListBucketResult>`;

describe('parseListObjectsV2', () => {
  it('reads entries, folders and the page fields', () => {
    const parsed = parseListObjectsV2(page);
    expect(parsed.contents).toEqual([
      {
        key: 'a%2Fwith+space%26amp.txt',
        size: 31457280,
        lastModified: '2026-11-22T02:32:35.000Z',
        etag: '"c0f8754f597414d5cfab136ca38b6a23-2"',
        storageClass: 'STANDARD',
      },
      {
        key: 'a%2Fb%3C%3E.txt',
        size: 0,
        lastModified: '2026-11-22T02:32:36.000Z',
        etag: '"764efa883dda1e11db47671c4a3bbd9e"',
        storageClass: 'STANDARD',
      },
    ]);
    expect(parsed.commonPrefixes).toEqual(['a%2Fsub%2F']);
    expect(parsed).toMatchObject({ isTruncated: true, nextContinuationToken: '1ZmFrZS10b2tlbg==&x', urlEncoded: true });
  });

  it('reads an empty, final page', () => {
    expect(
      parseListObjectsV2(
        '<ListBucketResult><Name>b</Name><KeyCount>0</KeyCount><IsTruncated>false</IsTruncated></ListBucketResult>',
      ),
    ).toEqual({
      contents: [],
      commonPrefixes: [],
      isTruncated: false,
      nextContinuationToken: undefined,
      urlEncoded: false,
    });
  });
});
