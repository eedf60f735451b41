// Every refusal of a call's parameters is a sentence that names the field in words; keys are held
// to S3's limit in bytes of UTF-8, said as the engine says it of a file's key.

import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { methodSchemas } from '../../../../src/contract/api.ts';
import type { MethodName } from '../../../../src/contract/api.ts';
import { FIELD_WORDS, issueMessage } from '../../../../src/contract/schema-messages.ts';
import { objectKeyProblem } from '../../../../src/s3-names.ts';

function refusal(method: MethodName, params: unknown): string | undefined {
  const parsed = methodSchemas[method].safeParse(params, { reportInput: true });
  return parsed.success ? undefined : issueMessage(parsed.error.issues[0]);
}

/** Every field a schema has, with whether it is a list, found by walking zod's definitions. */
function fieldsOf(schema: z.core.$ZodType, into = new Map<string, boolean>()): Map<string, boolean> {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (name: string) => def[name] as z.core.$ZodType;
  switch (def.type) {
    case 'object':
      for (const [name, field] of Object.entries(def.shape as Record<string, z.core.$ZodType>)) {
        into.set(name, (into.get(name) ?? false) || isList(field));
        fieldsOf(field, into);
      }
      break;
    case 'optional':
    case 'default':
    case 'nullable':
    case 'readonly':
    case 'prefault':
    case 'nonoptional':
      fieldsOf(inner('innerType'), into);
      break;
    case 'array':
      fieldsOf(inner('element'), into);
      break;
    case 'pipe':
      fieldsOf(inner('in'), into);
      fieldsOf(inner('out'), into);
      break;
    case 'union':
      for (const option of def.options as z.core.$ZodType[]) fieldsOf(option, into);
      break;
  }
  return into;
}

function isList(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (def.type === 'array') return true;
  const inner = def.innerType ?? def.in;
  return inner !== undefined && isList(inner as z.core.$ZodType);
}

const A_1025 = 'a'.repeat(1025);
const E_600 = 'é'.repeat(600);
const shown = (text: string) => `${text.slice(0, 80)}…`;

describe('a call refused for its parameters', () => {
  it("names every field of every method in words, and every list's items", () => {
    for (const [method, schema] of Object.entries(methodSchemas)) {
      for (const [field, list] of fieldsOf(schema)) {
        expect(FIELD_WORDS[field], `${method}: ${field}`).toBeDefined();
        if (list) expect(FIELD_WORDS[field]!.item, `${method}: ${field}'s items`).toBeDefined();
      }
    }
  });

  it.each([
    // S3's limit is 1,024 bytes of UTF-8: 1,025 ASCII characters and 600 'é' (1,200 bytes) are said alike.
    [
      'jobs.upload',
      { connectionId: 'c', bucket: 'b', prefix: A_1025, paths: ['/a'] },
      `The key "${shown(A_1025)}" is 1025 bytes long in UTF-8; S3 allows at most 1024: shorten the name or the destination prefix.`,
    ],
    [
      'jobs.upload',
      { connectionId: 'c', bucket: 'b', prefix: E_600, paths: ['/a'] },
      `The key "${shown(E_600)}" is 1200 bytes long in UTF-8; S3 allows at most 1024: shorten the name or the destination prefix.`,
    ],
    [
      'jobs.upload',
      { connectionId: 'c', bucket: 'b', prefix: `${'a'.repeat(1024)}/`, paths: ['/a'] },
      `The destination prefix "${'a'.repeat(80)}…" is 1025 bytes long in UTF-8; S3 allows at most 1024: no key can begin with it: shorten it.`,
    ],
    [
      'jobs.download',
      { connectionId: 'c', bucket: 'b', keys: ['é'.repeat(513)], targetFolder: '/t' },
      `The key "${'é'.repeat(80)}…" is 1026 bytes long in UTF-8; S3 allows at most 1024: no object can have it.`,
    ],
    [
      'jobs.delete',
      { connectionId: 'c', bucket: 'b', prefixes: [A_1025] },
      `The prefix "${shown(A_1025)}" is 1025 bytes long in UTF-8; S3 allows at most 1024: no key can begin with it.`,
    ],
    [
      'jobs.download',
      { connectionId: 'c', bucket: 'b', keys: [''], targetFolder: '/t' },
      'A key (number 1 of the list of keys) is empty.',
    ],
    [
      'jobs.upload',
      { connectionId: 'c', bucket: 'b', prefix: '' },
      'Give the files to upload either by their paths or as files sent (staged), one of the two.',
    ],
    [
      'jobs.delete',
      { connectionId: 'c', bucket: 'b', keys: ['a'], keySizes: [] },
      'Give one size for each key, or none.',
    ],
    [
      'objects.list',
      { connectionId: 'c', bucket: 'b/../c', prefix: '' },
      '"b/../c" is not a bucket\'s name (letters, digits, dots and hyphens): a bucket is named alone, without a path.',
    ],
    ['buckets.list', {}, 'The connection is missing.'],
    ['jobs.items', { id: 'x', list: 'errors', evil: 1 }, 'This request does not take "evil".'],
    ['jobs.details', { id: 'x', limit: 100_000 }, 'The number of items asked for is too large: at most 1,000.'],
    [
      'settings.update',
      { threads: 1000 },
      'The number of requests in flight must be "auto" or a whole number from 1 to 256.',
    ],
    [
      'settings.update',
      { threads: 2.5 },
      'The number of requests in flight must be "auto" or a whole number from 1 to 256.',
    ],
    [
      'jobs.download',
      { connectionId: 'c', bucket: 'b', keys: ['a'], targetFolder: '/t', requireVerified: 'yes' },
      'The require-verified choice must be true or false.',
    ],
    ['jobs.details', { id: 'x', filter: 'some' }, 'The filter must be one of all, failed.'],
    ['connections.add', { name: ' ' }, 'Give the connection a name.'],
    [
      'connections.check',
      { input: { name: 'n', region: 'us east' } },
      expect.stringMatching(/^That is not a region: /),
    ],
  ] as const)('%s %j: %s', (method, params, message) => {
    expect(refusal(method, params)).toEqual(message);
  });

  it('takes a key of 1,024 bytes, however many characters', () => {
    expect(
      refusal('jobs.download', {
        connectionId: 'c',
        bucket: 'b',
        keys: ['é'.repeat(512), 'a'.repeat(1024)],
        targetFolder: '/t',
      }),
    ).toBeUndefined();
  });

  it('says a long key as the engine says it of a file whose key is too long', () => {
    expect(refusal('jobs.upload', { connectionId: 'c', bucket: 'b', prefix: E_600, paths: ['/a'] })).toBe(
      `The key "${shown(E_600)}" ${objectKeyProblem(E_600)}.`,
    );
  });
});
