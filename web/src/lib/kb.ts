/**
 * The knowledge base as the console, the agent page and the Admin tab use it: one search and
 * one seeding call, shared so each feature asks the server the same way.
 */

import type { Results as SearchResponse, SeedResult } from '@/lib/api-types/kb';
import { api } from './api';

/** Searches the knowledge base (POST /api/search); `limit` is 1 to 20, the server's default 5. */
export function searchKnowledge(query: string, limit?: number): Promise<SearchResponse> {
  return api.post<SearchResponse>(
    '/api/search',
    limit === undefined ? { query } : { query, limit },
  );
}

/** Re-seeds the site's own documents (admins only; manual documents are left alone). */
export function seedKnowledgeBase(): Promise<SeedResult> {
  return api.post<SeedResult>('/api/admin/kb/seed');
}
