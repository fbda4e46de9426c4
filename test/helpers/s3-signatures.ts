import crypto from 'node:crypto';
import type http from 'node:http';

/**
 * Checks an S3 request's AWS Signature Version 4 (Authorization header form) the way S3 does,
 * from the request as it arrived on the wire: the canonical request is rebuilt from the method,
 * the raw path, the query, the signed headers and the declared payload hash, which must also
 * match the body. Answers null when the request is correctly signed with `secret`, else the
 * S3 error code that refuses it.
 */
export function signatureError(req: http.IncomingMessage, body: Buffer, credentials: { accessKeyId: string; secretAccessKey: string }): string | null {
  const match = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
  if (!match) return 'AccessDenied';
  const [accessKeyId, date, region, service, terminator] = match[1].split('/');
  if (accessKeyId !== credentials.accessKeyId) return 'InvalidAccessKeyId';
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!amzDate.startsWith(date) || terminator !== 'aws4_request') return 'AuthorizationHeaderMalformed';
  if (/^[0-9a-f]{64}$/.test(payloadHash) && sha256(body) !== payloadHash) return 'XAmzContentSHA256Mismatch';
  if (!/^[0-9a-f]{64}$/.test(payloadHash) && payloadHash !== 'UNSIGNED-PAYLOAD') return 'InvalidRequest';

  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const rawPath = queryAt < 0 ? url : url.slice(0, queryAt);
  const signedHeaders = match[2].split(';');
  if (!signedHeaders.includes('host')) return 'AccessDenied';
  const canonicalRequest = [
    req.method,
    rawPath,
    canonicalQuery(queryAt < 0 ? '' : url.slice(queryAt + 1)),
    ...signedHeaders.map((name) => `${name}:${headerValue(req, name)}`),
    '',
    match[2],
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/${terminator}`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(Buffer.from(canonicalRequest))].join('\n');
  let key: Buffer = Buffer.from(`AWS4${credentials.secretAccessKey}`);
  for (const part of [date, region, service, terminator]) key = hmac(key, part);
  const expected = hmac(key, stringToSign).toString('hex');
  return crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(match[3])) ? null : 'SignatureDoesNotMatch';
}

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer, data: string) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding, as SigV4 wants it. */
const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(query: string): string {
  if (query === '') return '';
  return query
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = decodeURIComponent(at < 0 ? pair : pair.slice(0, at));
      const value = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1).replace(/\+/g, ' '));
      return [encode(name), encode(value)];
    })
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function headerValue(req: http.IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
}
