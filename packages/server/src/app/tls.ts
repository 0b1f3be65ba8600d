import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import { ConfigError, type TlsConfig } from '../platform/config.js';

/**
 * Fastify's `serverFactory` for HTTPS (`bookie start --tls-cert --tls-key [--client-ca]`). With a client CA, every
 * connection must present a client certificate signed by it (mutual TLS, spec 02 "Authentication"); the partner's
 * bearer token is still required on partner routes.
 *
 * @throws ConfigError naming the flag whose file cannot be read.
 */
export function tlsServerFactory(tls: TlsConfig): (handler: RequestListener) => Server {
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new ConfigError(flag, `cannot read ${file}: ${(err as Error).message}`);
    }
  };
  const cert = read('--tls-cert', tls.certFile);
  const key = read('--tls-key', tls.keyFile);
  const ca = tls.clientCaFile ? read('--client-ca', tls.clientCaFile) : undefined;
  return (handler) =>
    createServer({ cert, key, ...(ca ? { ca, requestCert: true, rejectUnauthorized: true } : {}) }, handler);
}
