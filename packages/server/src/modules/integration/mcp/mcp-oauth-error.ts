/**
 * An OAuth error of the MCP authorization server (RFC 6749 §5.2, RFC 7591 §3.2.2): its code, HTTP status and
 * description, answered as `{error, error_description}` because that is what OAuth clients parse.
 */
export class McpOAuthError extends Error {
  constructor(
    public readonly error:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unsupported_grant_type'
      | 'invalid_client_metadata'
      | 'invalid_target',
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'McpOAuthError';
  }
}
