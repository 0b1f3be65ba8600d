import { randomBytes } from 'node:crypto';
import type { DomainError } from '@bookie/core';
import { oauthError } from '../../../http/oauth-errors.js';
import type { IntegrationDeps } from '../deps.js';
import { insertMcpClient } from './mcp-oauth.repo.js';

/** What an MCP client registers (RFC 7591 §2); other metadata is accepted and not kept. */
export interface McpClientRegistration {
  client_id: string;
  client_id_issued_at: number;
  client_name?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
}

function badMetadata(message: string): DomainError {
  return oauthError('invalid_client_metadata', message);
}

/**
 * Dynamic client registration (RFC 7591) of an MCP client: a public client (no secret; PKCE protects its codes)
 * with at least one redirect URI, each an absolute `http:`/`https:` URL (or a native app's custom scheme) without
 * a fragment.
 *
 * @throws DomainError (an OAuth error, http/oauth-errors.ts) invalid_client_metadata naming what is wrong.
 */
export async function registerMcpClient(
  deps: Pick<IntegrationDeps, 'database' | 'clock'>,
  body: unknown,
): Promise<McpClientRegistration> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badMetadata('expected a JSON object with redirect_uris');
  }
  const b = body as Record<string, unknown>;
  const uris = b.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10) {
    throw badMetadata('redirect_uris: expected 1 to 10 URLs');
  }
  for (const [i, u] of uris.entries()) {
    let url: URL;
    try {
      url = new URL(String(u));
    } catch {
      throw badMetadata(`redirect_uris[${i}]: not an absolute URL`);
    }
    if (typeof u !== 'string' || url.hash || u.length > 2000) {
      throw badMetadata(`redirect_uris[${i}]: must be a URL string without a fragment`);
    }
  }
  if (b.client_name !== undefined && (typeof b.client_name !== 'string' || b.client_name.length > 200)) {
    throw badMetadata('client_name: expected a string of at most 200 characters');
  }
  if (b.token_endpoint_auth_method !== undefined && b.token_endpoint_auth_method !== 'none') {
    throw badMetadata('token_endpoint_auth_method: only "none" (a public client using PKCE) is supported');
  }
  const clientId = `mcp_${randomBytes(16).toString('hex')}`;
  const now = new Date(deps.clock.now());
  await insertMcpClient(deps.database.db, {
    client_id: clientId,
    client_name: (b.client_name as string | undefined) ?? null,
    redirect_uris: uris as string[],
    created_at: now,
  });
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...(b.client_name ? { client_name: b.client_name as string } : {}),
    redirect_uris: uris as string[],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}
