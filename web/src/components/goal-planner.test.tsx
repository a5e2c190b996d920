import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAGE_CONFIG_ELEMENT_ID } from '@/lib/page-config';
import { json, mockApi, resetAuthState } from '@/test/mock-api';
import { renderRoute } from '@/test/render';
import { DEFAULT_GOAL, GOAL_WIDGET_CONFIG } from './goal-planner';

function stream(lines: string[]): Response {
  const text = lines.map((l) => `${l}\n\n`).join('');
  return new Response(text, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

function content(text: string): string {
  return `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}`;
}

function removeConfig() {
  document.getElementById(PAGE_CONFIG_ELEMENT_ID)?.remove();
  for (const s of document.querySelectorAll('script[data-goal-widget]')) s.remove();
  delete window.goalWidgetConfig;
}

describe('the goal planner', { timeout: 20_000 }, () => {
  beforeEach(() => {
    resetAuthState();
    removeConfig();
  });
  afterEach(() => {
    resetAuthState();
    removeConfig();
  });

  it('plans the default goal on /goal with purpose "goal"', async () => {
    const api = mockApi({
      'POST /api/ai/chat': () =>
        stream([content('1. **Learn** the basics\n2. Book the Deep Dive'), 'data: [DONE]']),
    });
    renderRoute('/goal');
    const box = await screen.findByRole('textbox', { name: 'Your goal' });
    expect(box).toHaveValue(DEFAULT_GOAL);
    expect(DEFAULT_GOAL).toMatch(/quantum computing/);
    await userEvent.click(screen.getByRole('button', { name: 'Plan my goal' }));
    const plan = await screen.findByRole('log', { name: 'Your plan' });
    expect(await within(plan).findByText('Learn')).toBeVisible();
    expect(within(plan).getAllByRole('listitem').length).toBeGreaterThanOrEqual(2);
    // Only the answer is shown, not the goal again as a chat bubble.
    expect(within(plan).queryByText(DEFAULT_GOAL)).not.toBeInTheDocument();
    expect(api.to('POST', '/api/ai/chat')[0]?.body).toEqual({
      messages: [{ role: 'user', content: DEFAULT_GOAL }],
      purpose: 'goal',
    });
  });

  it('asks for a goal when the box is empty', async () => {
    const api = mockApi();
    renderRoute('/goal');
    const box = await screen.findByRole('textbox', { name: 'Your goal' });
    await userEvent.clear(box);
    expect(screen.getByRole('button', { name: 'Plan my goal' })).toBeDisabled();
    await userEvent.type(box, '{Enter}');
    expect(await screen.findByText('Please enter a goal')).toBeVisible();
    expect(api.to('POST', '/api/ai/chat')).toHaveLength(0);
  });

  it('loads the operator’s widget instead, with its configuration, when the server names one', async () => {
    const element = document.createElement('script');
    element.id = PAGE_CONFIG_ELEMENT_ID;
    element.type = 'application/json';
    element.textContent = JSON.stringify({
      goal_widget_url: 'https://widgets.example.com/goal.js',
    });
    document.body.appendChild(element);
    mockApi({ 'GET /api/auth/session': () => json(200, { user: null }) });
    renderRoute('/goal');
    expect(await screen.findByTestId('goal-widget-mount')).toBeEmptyDOMElement();
    expect(screen.queryByRole('textbox', { name: 'Your goal' })).not.toBeInTheDocument();
    const script = document.querySelector<HTMLScriptElement>('script[data-goal-widget]');
    expect(script?.src).toBe('https://widgets.example.com/goal.js');
    expect(window.goalWidgetConfig).toEqual({ ...GOAL_WIDGET_CONFIG, container: '#goal-widget' });
    expect(GOAL_WIDGET_CONFIG).toMatchObject({
      aiEnabled: true,
      model: expect.stringMatching(/flash/),
    });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the goal planner');
  });
});
