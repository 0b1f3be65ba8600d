import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs openssl in `dir` (the test's certificates are made by the real tool, as an operator would). */
function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** openssl req's arguments for a new RSA 2048 key, unencrypted, written to `<name>.key`. */
const newKey = (name: string) => ['-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`];

/** Writes `<name>.key` and a self-signed `<name>.crt` (CN=name, 2 days, RSA 2048) in `dir`: a CA or a lone certificate. */
export function selfSignedCertificate(dir: string, name: string): void {
  openssl(dir, [
    'req',
    '-x509',
    ...newKey(name),
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
  ]);
}

/**
 * Writes `<name>.key` and `<name>.crt` (CN=name, 2 days) signed by the CA `<caName>.crt`/`.key` in `dir`, with the
 * X.509 extensions in `ext` (openssl extfile lines, e.g. `extendedKeyUsage=clientAuth`).
 */
export function signedCertificate(dir: string, name: string, caName: string, ext: string): void {
  openssl(dir, ['req', ...newKey(name), '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${caName}.crt`,
    '-CAkey',
    `${caName}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
  ]);
}
