import { describe, expect, it } from 'vitest';
import { sameStore } from '../../main/engine/s3/store-identity.ts';

describe('sameStore', () => {
  it('sees one store through endpoints written differently', () => {
    expect(sameStore('http://localhost:9000', 'http://127.0.0.1:9000/')).toBe(true);
    expect(sameStore('http://[::1]:9000', 'http://LOCALHOST:9000')).toBe(true);
    expect(sameStore('https://S3.Example.com:443', 'https://s3.example.com')).toBe(true);
    expect(sameStore('http://minio.lan', 'http://minio.lan:80')).toBe(true);
    expect(sameStore(undefined, 'https://s3.amazonaws.com')).toBe(true);
    expect(sameStore('https://s3.eu-west-1.amazonaws.com', undefined)).toBe(true);
  });

  it('sees two stores where host or port differ', () => {
    expect(sameStore('http://localhost:9000', 'http://localhost:9001')).toBe(false);
    expect(sameStore('https://a.example.com', 'https://b.example.com')).toBe(false);
    expect(sameStore(undefined, 'https://storage.googleapis.com')).toBe(false);
    expect(sameStore('https://s3.amazonaws.com', 'https://s3.cn-north-1.amazonaws.com.cn')).toBe(false);
  });
});
