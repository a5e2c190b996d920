import { describe, expect, it } from 'vitest';
import {
  completeMention,
  documentFrom,
  mentionMatches,
  mentionQuery,
  threadIdOf,
  threadPath,
} from './logic';

describe('mentions', () => {
  it('finds the partial mention being typed at the end', () => {
    expect(mentionQuery('Hi @Ad')).toBe('Ad');
    expect(mentionQuery('@')).toBe('');
    expect(mentionQuery('Hi @Ada Lo')).toBe('Ada Lo');
    expect(mentionQuery('mail me at ada@example.com')).toBeNull();
    expect(mentionQuery('no mention')).toBeNull();
  });

  it('offers the names that start with it, ignoring case', () => {
    const names = ['Ada Lovelace', 'Adam Smith', 'Bob Builder', ''];
    expect(mentionMatches(names, 'ad')).toEqual(['Ada Lovelace', 'Adam Smith']);
    expect(mentionMatches(names, '')).toEqual(['Ada Lovelace', 'Adam Smith', 'Bob Builder']);
    expect(mentionMatches(names, 'z')).toEqual([]);
  });

  it('completes the partial mention to the chosen name', () => {
    expect(completeMention('Thanks @Ad', 'Ada Lovelace')).toBe('Thanks @Ada Lovelace ');
  });
});

describe('thread paths', () => {
  it('round-trips a thread id through its deep link', () => {
    expect(threadPath('abc')).toBe('/members/community/abc');
    expect(threadPath('abc', 'r1')).toBe('/members/community/abc#reply-r1');
    expect(threadIdOf('/members/community/abc')).toBe('abc');
    expect(threadIdOf('/members/community/abc/')).toBe('abc');
    expect(threadIdOf('/members')).toBeNull();
    expect(threadIdOf('/members/community/a/b')).toBeNull();
  });
});

describe('documentFrom', () => {
  it('prefills a knowledge-base document with the question and its accepted answer', () => {
    const doc = documentFrom(
      { id: 't1', title: 'Which store?', body: 'For memory.' },
      { body: 'A vector store.', author: { full_name: 'Bob' } },
    );
    expect(doc.title).toBe('Which store?');
    expect(doc.content).toContain('## Question\n\nFor memory.');
    expect(doc.content).toContain('## Answer\n\nA vector store.');
    expect(doc.content).toContain('Answered by Bob');
  });
});
