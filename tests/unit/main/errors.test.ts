import { describe, expect, it } from 'vitest';
import { errorCode, toBargeError } from '../../../main/engine/errors.ts';

describe('errors', () => {
  it('says what went wrong and what to do, naming the action', () => {
    const e = toBargeError(Object.assign(new Error('x'), { name: 'NoSuchBucket', $metadata: { httpStatusCode: 404 } }), 'list s3://nope/');
    expect(e).toMatchObject({ code: 'NoSuchBucket', message: 'Cannot list s3://nope/: The bucket does not exist (check its name and the endpoint).' });
  });

  it('uses one code per meaning across stores', () => {
    expect(errorCode(Object.assign(new Error('No user exists with the provided access key ID.'), { name: 'XAdminUserNotFound' }))).toBe('InvalidAccessKeyId');
    expect(toBargeError(Object.assign(new Error('?'), { name: 'XAdminUserNotFound' })).message).toContain('does not know this access key ID');
  });

  it('reads errno codes, underscores included, and falls back to the server message or status', () => {
    expect(errorCode(Object.assign(new Error('dns'), { code: 'EAI_AGAIN' }))).toBe('EAI_AGAIN');
    expect(errorCode(Object.assign(new Error('closed'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }))).toBe('ERR_STREAM_PREMATURE_CLOSE');
    expect(toBargeError(Object.assign(new Error('Quota exceeded'), { name: 'QuotaExceeded', $metadata: { httpStatusCode: 403 } })).message).toBe('Quota exceeded (HTTP 403).');
    expect(toBargeError(Object.assign(new Error('UnknownError'), { name: 'Error', $metadata: { httpStatusCode: 418 } }))).toMatchObject({ code: 'Http418', message: 'The server answered HTTP 418.' });
  });
});
