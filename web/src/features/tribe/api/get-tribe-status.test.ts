import { afterEach, describe, expect, it } from 'vitest';
import { json, mockApi, resetAuthState } from '@/test/mock-api';
import { getTribeStatus } from './get-tribe-status';

afterEach(() => {
  resetAuthState();
});

describe('getTribeStatus', () => {
  it('answers the status the server sends', async () => {
    const status = {
      capacity: 50,
      active_members: 12,
      held: 0,
      spots_left: 38,
      at_capacity: false,
      payments_enabled: false,
    };
    mockApi({ 'GET /api/tribe/status': () => json(200, status) });
    await expect(getTribeStatus()).resolves.toEqual(status);
  });

  it('reads a status without payments_enabled as payment off, and without held as none held', async () => {
    const old = { capacity: 50, active_members: 12, spots_left: 38, at_capacity: false };
    mockApi({ 'GET /api/tribe/status': () => json(200, old) });
    await expect(getTribeStatus()).resolves.toEqual({ ...old, held: 0, payments_enabled: false });
  });

  it('answers null for a held count that is not a number', async () => {
    const bad = { capacity: 50, active_members: 12, held: '2', spots_left: 36, at_capacity: false };
    mockApi({ 'GET /api/tribe/status': () => json(200, bad) });
    await expect(getTribeStatus()).resolves.toBeNull();
  });

  it('answers null for anything that is not a status', async () => {
    mockApi({ 'GET /api/tribe/status': () => json(200, { capacity: '50' }) });
    await expect(getTribeStatus()).resolves.toBeNull();
  });
});
