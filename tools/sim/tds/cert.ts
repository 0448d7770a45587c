// The server certificate: self-signed, generated once per process (key generation costs ~100 ms and every test
// starts its own server).

import { generate } from 'selfsigned';

export interface CertPair {
  key: string;
  cert: string;
}

let cached: Promise<CertPair> | undefined;

export function selfSignedCert(commonName = 'localhost'): Promise<CertPair> {
  if (!cached) {
    cached = generate([{ name: 'commonName', value: commonName }], {
      keyType: 'rsa',
      keySize: 2048,
      notAfterDate: new Date(Date.now() + 365 * 24 * 3600 * 1000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    }).then((r) => ({ key: r.private, cert: r.cert }));
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}
