import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../../../../main/web-host/content-disposition.ts';

describe('the Content-Disposition of a saved object', () => {
  it('is an attachment, named in ASCII and in UTF-8', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition('résumé 1.pdf')).toBe(
      `attachment; filename="r_sum_ 1.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%201.pdf`,
    );
  });

  it('never lets a name end the quoted string or add a parameter', () => {
    const header = attachmentDisposition('a"; filename=evil.exe; x=\\.txt');
    expect(header).toBe(
      `attachment; filename="a_; filename=evil.exe; x=_.txt"; filename*=UTF-8''a%22%3B%20filename%3Devil.exe%3B%20x%3D%5C.txt`,
    );
    expect(attachmentDisposition("it's (1)*.txt")).toContain(`filename*=UTF-8''it%27s%20%281%29%2A.txt`);
  });

  it('falls back to the ASCII name for a name that is not well-formed Unicode', () => {
    expect(attachmentDisposition('bad\ud800.txt')).toBe('attachment; filename="bad_.txt"');
  });
});
