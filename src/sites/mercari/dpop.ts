// The DPoP proof (RFC 9449 shape, ES256) Mercari's web app sends with every api.mercari.jp call, made fresh per request.
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';

export interface DpopOptions {
  /** The request URL exactly as it is sent (the proof binds to it: `htu`). */
  url: string;
  /** Upper-case HTTP method (`htm`). */
  method: string;
  /** Seconds since the epoch for `iat`; the current time when absent (a signature needs the clock). */
  issuedAt?: number;
}

/** The public half of a P-256 key as a JWK: only the members the web app puts in the proof's header. */
interface PublicJwk {
  crv: string;
  kty: string;
  x: string;
  y: string;
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/**
 * A signed `dpop+jwt`: header `{alg: ES256, typ: dpop+jwt, jwk}`, claims `iat`, `jti`, `htu`, `htm` and the web app's
 * own `uuid` (a device id). The key pair and the device id are new on every call: nothing is kept between requests,
 * so no proof links one of our requests to another and there is no key material to store or leak.
 */
export function createDpopProof(options: DpopOptions): string {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const exported = publicKey.export({ format: 'jwk' });
  const jwk: PublicJwk = {
    crv: String(exported.crv),
    kty: String(exported.kty),
    x: String(exported.x),
    y: String(exported.y),
  };
  const header = { alg: 'ES256', jwk, typ: 'dpop+jwt' };
  const claims = {
    iat: options.issuedAt ?? Math.floor(Date.now() / 1000),
    jti: randomUUID(),
    htu: options.url,
    htm: options.method.toUpperCase(),
    uuid: randomUUID(),
  };
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  // JWS ES256 wants the raw 64-byte r‖s signature, not the DER encoding node:crypto gives by default.
  const signature = sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${base64url(signature)}`;
}
