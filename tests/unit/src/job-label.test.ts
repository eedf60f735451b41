import { expect, it } from 'vitest';
import { commonParent, jobLabel, lastName } from '../../../src/job-label.ts';

it('names a job after what it moves: one name, or files and folders counted', () => {
  expect(jobLabel([{ name: '/home/me/report.pdf', folder: false }])).toBe('report.pdf');
  expect(jobLabel([{ name: '/home/me/photos', folder: true }])).toBe('photos');
  expect(jobLabel([{ name: 'logs/2024/', folder: true }])).toBe('2024');
  expect(
    jobLabel([
      { name: 'a', folder: false },
      { name: 'b', folder: false },
    ]),
  ).toBe('2 files');
  expect(
    jobLabel([
      { name: 'a', folder: true },
      { name: 'b', folder: true },
    ]),
  ).toBe('2 folders');
  expect(
    jobLabel([
      { name: 'a', folder: false },
      { name: 'b', folder: false },
      { name: 'c', folder: false },
      { name: 'd', folder: true },
    ]),
  ).toBe('3 files and 1 folder');
  expect(
    jobLabel([
      { name: 'a', folder: false },
      { name: 'd', folder: true },
      { name: 'e', folder: true },
    ]),
  ).toBe('1 file and 2 folders');
});

it('takes the last part of a path, a key or a prefix', () => {
  expect(lastName('a/b/')).toBe('b');
  expect(lastName('C:\\x\\y.txt')).toBe('y.txt');
  expect(lastName('top')).toBe('top');
  expect(lastName('/')).toBe('/');
});

it('finds the folder a set of keys and prefixes lives in', () => {
  expect(commonParent(['photos/a.jpg', 'photos/2024/'])).toBe('photos/');
  expect(commonParent(['photos/2024/a.jpg', 'photos/2025/b.jpg'])).toBe('photos/');
  expect(commonParent(['photos/ab.jpg', 'photos/ac.jpg'])).toBe('photos/');
  expect(commonParent(['a.txt', 'photos/'])).toBe('');
  expect(commonParent(['photos'])).toBe('');
  expect(commonParent([])).toBe('');
});
