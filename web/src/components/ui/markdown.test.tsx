import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, parseBlocks, safeHref } from './markdown';

function html(text: string): HTMLElement {
  return render(<Markdown text={text} />).container;
}

describe('Markdown', () => {
  it('renders paragraphs, with single line breaks kept', () => {
    const root = html('First line\nsecond line\n\nNext paragraph');
    const ps = root.querySelectorAll('p');
    expect(ps).toHaveLength(2);
    expect(ps[0]?.innerHTML).toBe('First line<br>second line');
    expect(ps[1]?.textContent).toBe('Next paragraph');
  });

  it('renders bulleted and numbered lists, keeping the first number', () => {
    const root = html('Steps:\n3. Learn\n4. Build\n   with care\n\n- one\n* two');
    const ol = root.querySelector('ol');
    expect(ol?.getAttribute('start')).toBe('3');
    expect([...(ol?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual([
      'Learn',
      'Buildwith care',
    ]);
    expect(ol?.querySelectorAll('li')[1]?.querySelector('br')).not.toBeNull();
    expect([...root.querySelectorAll('ul li')].map((li) => li.textContent)).toEqual(['one', 'two']);
  });

  it('renders bold, italic and inline code, but not inside words or code', () => {
    const root = html('**Deep Dive** is *the* _popular_ one; `a **b**` and snake_case_name');
    expect(root.querySelector('strong')?.textContent).toBe('Deep Dive');
    expect([...root.querySelectorAll('em')].map((e) => e.textContent)).toEqual(['the', 'popular']);
    expect(root.querySelector('code')?.textContent).toBe('a **b**');
    expect(root.querySelectorAll('strong')).toHaveLength(1);
    expect(root.textContent).toContain('snake_case_name');
  });

  it('keeps a fenced code block literal, even before its closing fence arrives', () => {
    const root = html('Run:\n```sh\nnpx tribe **not bold**\n<b>x</b>\n```\nDone');
    const code = root.querySelector('pre code');
    expect(code?.textContent).toBe('npx tribe **not bold**\n<b>x</b>');
    expect(code?.getAttribute('data-language')).toBe('sh');
    expect(root.querySelector('b')).toBeNull();
    expect(html('```\nhalf').querySelector('pre code')?.textContent).toBe('half');
  });

  it('links http(s) only, and opens them safely', () => {
    const root = html(
      '[Book](https://cal.com/ruv/30min) [bad](javascript:alert%281%29) [data](data:text/html,x)',
    );
    const links = root.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://cal.com/ruv/30min');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(links[0]?.getAttribute('target')).toBe('_blank');
    expect(root.textContent).toContain('bad');
    expect(root.textContent).toBe('Book bad data');
  });

  it('links bare addresses without the sentence’s punctuation', () => {
    const root = html('Book at http://127.0.0.1:8080/booking. Or (https://ruv.io/about), thanks');
    const hrefs = [...root.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['http://127.0.0.1:8080/booking', 'https://ruv.io/about']);
    expect(root.textContent).toBe(
      'Book at http://127.0.0.1:8080/booking. Or (https://ruv.io/about), thanks',
    );
  });

  it('shows raw HTML as text and never creates its elements', () => {
    const root = html('<img src=x onerror=alert(1)> <script>alert(2)</script> **<i>hi</i>**');
    expect(root.querySelector('img, script, i')).toBeNull();
    expect(root.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(root.textContent).toContain('<script>alert(2)</script>');
  });

  it('renders headings below the page heading level', () => {
    const root = html('# Plan\n## Step one\ntext');
    expect(root.querySelector('h3')?.textContent).toBe('Plan');
    expect(root.querySelector('h4')?.textContent).toBe('Step one');
    expect(root.querySelector('h1, h2')).toBeNull();
  });
});

describe('parseBlocks and safeHref', () => {
  it('separates blocks', () => {
    expect(parseBlocks('a\n\n- b\nc').map((b) => b.kind)).toEqual([
      'paragraph',
      'list',
      'paragraph',
    ]);
  });

  it('accepts only absolute http(s) addresses', () => {
    expect(safeHref('https://ruv.io/a?b=1')).toBe('https://ruv.io/a?b=1');
    expect(safeHref('http://localhost:8080/')).toBe('http://localhost:8080/');
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      '/booking',
      'mailto:a@b.c',
      'vbscript:x',
    ]) {
      expect(safeHref(bad)).toBeNull();
    }
  });
});
