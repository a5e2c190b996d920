import { afterEach, describe, expect, it } from 'vitest';
import { readJsonScript } from './json-script';

function embed(id: string, text: string) {
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = id;
  el.textContent = text;
  document.body.append(el);
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('readJsonScript', () => {
  it('reads the JSON the server embedded', () => {
    embed('tribe-config', '{"goal_widget_url":"https://widgets.example.com/g.js"}');
    expect(readJsonScript('tribe-config')).toEqual({
      goal_widget_url: 'https://widgets.example.com/g.js',
    });
  });

  it('is undefined when the element is absent, empty or broken', () => {
    expect(readJsonScript('tribe-config')).toBeUndefined();
    embed('empty', '');
    expect(readJsonScript('empty')).toBeUndefined();
    embed('broken', '{"cut off');
    expect(readJsonScript('broken')).toBeUndefined();
  });
});
